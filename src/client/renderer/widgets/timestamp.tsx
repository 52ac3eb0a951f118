// timestamp: an instant the server recorded (posted at, confirmed at), shown read-only in the company's
// time zone. Never edited: such fields are stamped by the server.
import { Input } from 'antd';
import { formatTime } from '../../../core/format';
import { useRenderEnv } from '../env';
import type { WidgetDef, WidgetProps } from './types';

function TimestampWidget({ value, schema }: WidgetProps) {
  const env = useRenderEnv();
  const text = value === undefined || value === null || value === '' ? '' : formatTime(String(value), env.tz);
  return <Input value={text} disabled aria-label={schema.title} />;
}

const timestamp: WidgetDef = { component: TimestampWidget };
export default timestamp;
