// The error box for schema parts the renderer cannot draw: one line per problem, naming its schema
// path (`columns[3].type: 未知的列类型 "foo"`). The rest of the screen still draws.
import { Alert } from 'antd';
import type { SchemaProblem } from './registry';

export function SchemaProblems({ problems, prefix }: { problems: readonly SchemaProblem[]; prefix?: string }) {
  if (!problems.length) return null;
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      style={{ marginBottom: 12 }}
      message="界面定义有误"
      description={
        <ul style={{ margin: 0, paddingLeft: 18 }}>
          {problems.map((p) => (
            <li key={`${p.path}:${p.message}`} className="schema-problem">
              {prefix ? `${prefix}.` : ''}
              {p.path}: {p.message}
            </li>
          ))}
        </ul>
      }
    />
  );
}
