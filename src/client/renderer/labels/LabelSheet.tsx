// Labels drawn for printing from the browser: one label is 100 × 50 mm (code, name, the lines the label
// data gives, a Code 128 barcode and, for products and locations, a QR code that opens /qrCodeLoad). Two
// layouts: A4 sheets of 2 × 5 labels, or label stock of one 100 × 50 mm label per page. The sheet covers
// the screen while open; printing hides everything else (labels.css) and sets the page size (@page).
import { Button, Radio, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { code128Svg, qrSvg, qrUrl } from './codes';
import './labels.css';

export interface LabelData {
  title: string;
  code: string;
  name: string;
  lines: string[];
  barcode: string;
  /** signed token of the QR code (null: no QR code) */
  qr: string | null;
}

export type LabelLayout = 'a4' | 'roll';
const PER_A4 = 10;
const PAGE_CSS: Record<LabelLayout, string> = {
  a4: '@page { size: A4 portrait; margin: 0; }',
  roll: '@page { size: 100mm 50mm; margin: 0; }',
};

function Svg({ markup, className }: { markup: string; className: string }) {
  // SVG text made here by the barcode libraries from the label's own values (never HTML from a user)
  return <div className={className} dangerouslySetInnerHTML={{ __html: markup }} />;
}

function Label({ label }: { label: LabelData }) {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (label.qr) void qrSvg(qrUrl(label.qr)).then((svg) => live && setQr(svg));
    return () => {
      live = false;
    };
  }, [label.qr]);
  let barcode = '';
  try {
    barcode = code128Svg(label.barcode);
  } catch {
    barcode = '';
  }
  return (
    <div className="label" data-testid="label">
      <div className="label-text">
        <div className="label-title">{label.title}</div>
        <div className="label-code">{label.code}</div>
        <div className="label-name">{label.name}</div>
        {label.lines.map((l) => (
          <div className="label-line" key={l}>
            {l}
          </div>
        ))}
      </div>
      {label.qr && (qr ? <Svg className="label-qr" markup={qr} /> : <div className="label-qr" />)}
      <div className="label-barcode">
        {barcode ? <Svg className="label-barcode-bars" markup={barcode} /> : <span>条码无法生成：{label.barcode}</span>}
        <div className="label-barcode-text">{label.barcode}</div>
      </div>
    </div>
  );
}

export function LabelSheet({ heading, labels, onClose }: { heading: string; labels: LabelData[]; onClose(): void }) {
  const [layout, setLayout] = useState<LabelLayout>('a4');
  useEffect(() => {
    const style = document.createElement('style');
    style.dataset.labels = 'page';
    style.textContent = PAGE_CSS[layout];
    document.head.appendChild(style);
    document.body.classList.add('labels-open');
    return () => {
      style.remove();
      document.body.classList.remove('labels-open');
    };
  }, [layout]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const pages = layout === 'a4' ? Array.from({ length: Math.ceil(labels.length / PER_A4) }, (_, i) => labels.slice(i * PER_A4, (i + 1) * PER_A4)) : [labels];
  return createPortal(
    <div className={`label-sheet-overlay layout-${layout}`} role="dialog" aria-label={heading}>
      <div className="label-sheet-bar">
        <Typography.Text strong>{heading}</Typography.Text>
        <Typography.Text type="secondary">共 {labels.length} 张</Typography.Text>
        <Radio.Group value={layout} onChange={(e) => setLayout(e.target.value as LabelLayout)} optionType="button" buttonStyle="solid">
          <Radio.Button value="a4">A4 标签纸（2 × 5）</Radio.Button>
          <Radio.Button value="roll">100 × 50 mm 标签</Radio.Button>
        </Radio.Group>
        <Space className="label-sheet-buttons">
          <Button type="primary" onClick={() => window.print()}>
            打印
          </Button>
          <Button onClick={onClose}>关闭</Button>
        </Space>
      </div>
      {pages.map((page, i) => (
        <div className={`label-page label-page-${layout}`} key={i}>
          {page.map((l, j) => (
            <Label label={l} key={`${l.code}-${j}`} />
          ))}
        </div>
      ))}
    </div>,
    document.body,
  );
}
