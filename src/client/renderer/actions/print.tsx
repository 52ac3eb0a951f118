// print: the browser's print of the screen as it is drawn; the layout's print styles leave out the
// menu, header, tabs and buttons (src/client/shell/layout.css), so a document prints as a sheet.
import { PrinterOutlined } from '@ant-design/icons';
import { ActionButton } from './ActionButton';
import type { ActionDef, ActionProps } from './types';

function PrintAction({ action, inline, record }: ActionProps) {
  return <ActionButton action={action} inline={inline} record={record} icon={<PrinterOutlined />} onRun={() => window.print()} />;
}

const print: ActionDef = { component: PrintAction };
export default print;
