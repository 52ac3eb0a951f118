// /login: company code, user name, password. A wrong user name or password (AUTH_LOGIN_4033) is shown
// under the form; the request core toasts any other failure. Built from Input and Button with a native
// <form> rather than antd Form/Card/Typography, which pull Tooltip, Tabs and TextArea code into the page
// that every user loads first (goal: /login ≤ 250 kB gz, see scripts/bundle-report.ts).

import { Alert, Button, Input } from 'antd';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { OK } from '../../core/codes';
import { HOME_PATH } from '../router/guard';
import { login } from '../session';
import { readLastLogin, writeLastLogin } from './loginMemory';
import { resetTabs } from './openTabs';

type Field = 'companyCode' | 'userName' | 'password';
type Values = Record<Field, string>;

const FIELDS: { name: Field; label: string; required: string; autoComplete: string }[] = [
  { name: 'companyCode', label: '公司代码', required: '请输入公司代码', autoComplete: 'organization' },
  { name: 'userName', label: '用户名', required: '请输入用户名', autoComplete: 'username' },
  { name: 'password', label: '密码', required: '请输入密码', autoComplete: 'current-password' },
];

const WRONG_CREDENTIALS = 'AUTH_LOGIN_4033';

function missingFields(values: Values): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const f of FIELDS) if (!values[f.name].trim()) errors[f.name] = f.required;
  return errors;
}

export default function LoginPage() {
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(() => ({ ...readLastLogin(), password: '' }));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [inlineError, setInlineError] = useState<string | null>(null);
  // the caret waits where typing starts: 公司代码, or the first field the last login did not fill
  const [caretAt] = useState<Field>(() => FIELDS.find((f) => !values[f.name].trim())?.name ?? 'password');

  const change = (name: Field, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
    setInlineError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = missingFields(values);
    setErrors(missing);
    if (Object.keys(missing).length > 0 || submitting) return;
    setSubmitting(true);
    setInlineError(null);
    try {
      const credentials = { companyCode: values.companyCode.trim(), userName: values.userName.trim(), password: values.password };
      const res = await login(credentials);
      if (res.code === OK) {
        writeLastLogin({ companyCode: credentials.companyCode, userName: credentials.userName });
        resetTabs(); // tabs of whoever used this browser tab before
        navigate(HOME_PATH, { replace: true });
        return;
      }
      if (res.code === WRONG_CREDENTIALS) setInlineError(res.msg || '用户名或密码错误');
      setValues((v) => ({ ...v, password: '' }));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <main style={pageStyle}>
      <form style={panelStyle} onSubmit={(e) => void submit(e)} noValidate>
        <h1 style={titleStyle}>贸易管理后台</h1>
        {FIELDS.map((f) => {
          const InputKind = f.name === 'password' ? Input.Password : Input;
          return (
            <div key={f.name} style={{ marginBottom: 20 }}>
              <label htmlFor={`login-${f.name}`} style={labelStyle}>
                {f.label}
              </label>
              <InputKind
                id={`login-${f.name}`}
                name={f.name}
                size="large"
                placeholder={f.label}
                autoComplete={f.autoComplete}
                autoFocus={f.name === caretAt}
                value={values[f.name]}
                status={errors[f.name] ? 'error' : undefined}
                onChange={(e) => change(f.name, e.target.value)}
              />
              {errors[f.name] && <div style={fieldErrorStyle}>{errors[f.name]}</div>}
            </div>
          );
        })}
        <Button type="primary" htmlType="submit" size="large" block loading={submitting}>
          登录
        </Button>
        {inlineError && <Alert type="error" showIcon message={inlineError} style={{ marginTop: 16 }} data-testid="login-error" />}
      </form>
    </main>
  );
}

const pageStyle = {
  minHeight: '100vh',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  background: 'linear-gradient(135deg, #e6f4ff 0%, #f5f5f5 100%)',
} as const;

const panelStyle = {
  width: 380,
  padding: 32,
  background: '#fff',
  borderRadius: 8,
  boxShadow: '0 6px 16px rgba(0,0,0,0.08)',
} as const;

const titleStyle = { textAlign: 'center', fontSize: 24, fontWeight: 600, margin: '0 0 28px' } as const;
const labelStyle = { display: 'block', marginBottom: 6, color: 'rgba(0,0,0,0.88)' } as const;
const fieldErrorStyle = { color: '#ff4d4f', fontSize: 14, marginTop: 4 } as const;
