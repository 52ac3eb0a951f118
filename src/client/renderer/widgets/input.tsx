// input: text with the schema's input filter (spec §5) applied as the user types or pastes.
import { FilteredInput } from '../../widgets/FilteredInput';
import { placeholderOf, type WidgetDef, type WidgetProps } from './types';

function InputWidget({ value, onChange, disabled, readOnly, schema, mode }: WidgetProps) {
  return (
    <FilteredInput
      aria-label={schema.title}
      filter={schema.filter}
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(e) => onChange?.(e.target.value)}
      disabled={disabled}
      readOnly={readOnly}
      maxLength={schema.maxLength}
      allowClear={mode === 'filter'}
      placeholder={placeholderOf(schema, false)}
    />
  );
}

const input: WidgetDef = { component: InputWidget };
export default input;
