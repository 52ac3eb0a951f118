// A header cell whose right edge can be dragged to resize its column (ProTable keeps no widths, see
// DESIGN §6; ours are saved with the other column preferences). Live updates are batched per frame;
// the final width is reported once on release.

import { useRef, type CSSProperties, type ThHTMLAttributes } from 'react';
import type { HeaderCellProps } from './buildColumns';

const HANDLE: CSSProperties = {
  position: 'absolute',
  top: 0,
  right: -4,
  width: 8,
  height: '100%',
  cursor: 'col-resize',
  zIndex: 2,
  touchAction: 'none',
};

export function ResizableHeaderCell({ width, onResize, children, style, ...rest }: ThHTMLAttributes<HTMLTableCellElement> & HeaderCellProps) {
  const frame = useRef(0);
  if (!onResize || !width) return <th {...rest} style={style}>{children}</th>;

  const start = (e: React.PointerEvent<HTMLSpanElement>) => {
    e.preventDefault();
    e.stopPropagation();
    const x0 = e.clientX;
    const target = e.currentTarget;
    target.setPointerCapture?.(e.pointerId);
    let last = width;
    const move = (ev: PointerEvent) => {
      last = Math.max(40, Math.round(width + ev.clientX - x0));
      cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(() => onResize(last, false));
    };
    const up = () => {
      cancelAnimationFrame(frame.current);
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
      target.removeEventListener('pointercancel', up);
      onResize(last, true);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
    target.addEventListener('pointercancel', up);
  };

  return (
    <th {...rest} style={{ ...style, position: style?.position ?? 'relative' }}>
      {children}
      <span
        className="renderer-col-resize"
        style={HANDLE}
        onPointerDown={start}
        onClick={(e) => e.stopPropagation()}
        role="separator"
        aria-orientation="vertical"
        aria-label="拖动调整列宽"
      />
    </th>
  );
}
