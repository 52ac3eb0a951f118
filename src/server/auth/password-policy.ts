// What a new password must be, checked wherever one is set (change password 990107, account save and
// reset, any resource field of type password). Login never applies it: passwords set before the policy
// (the demo logins' demo123) keep working until their owner changes them.
// NIST SP 800-63B: a minimum length, a check against passwords known to be common, no composition rules.

export const PASSWORD_MIN_LENGTH = 8;

/**
 * Passwords that lead the published leak lists (SecLists' most common, the Chinese site leaks) and are
 * long enough to pass the length rule; shorter ones are refused by length already. Compared in lower case.
 */
const COMMON = new Set([
  'password', 'password1', 'password12', 'password123', 'password!', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pa$$word',
  '12345678', '123456789', '1234567890', '0123456789', '87654321', '987654321', '9876543210', '11223344', '12341234',
  '123123123', '123321123', '12344321', '12121212', '11112222', '13141314', '52013141', '5201314520', '1314520520',
  'qwertyui', 'qwertyuiop', 'qwerty123', 'qwerty12', 'qwer1234', '1qaz2wsx', '1q2w3e4r', '1q2w3e4r5t', 'q1w2e3r4',
  'zaq12wsx', 'zxcvbnm1', 'zxcvbnm123', 'asdfghjk', 'asdfghjkl', 'asdf1234', 'abcd1234', 'abc12345', 'abc123456',
  'a1234567', 'a12345678', 'a123456789', 'aa123456', 'aa12345678', 'qq123456', 'qq5201314', 'woaini1314', 'woaini520',
  'iloveyou', 'iloveyou1', 'sunshine', 'princess', 'football', 'baseball', 'superman', 'starwars', 'whatever',
  'trustno1', 'letmein1', 'welcome1', 'welcome123', 'admin123', 'admin1234', 'admin12345', 'administrator', 'root1234',
  'changeme', 'changeme1', 'default1', 'computer', 'internet', 'michelle', 'jennifer', 'shanghai', 'beijing1',
  'dragon12', 'monkey12', 'master12', 'mustang1', 'access14', 'michael1', 'charlie1', 'jordan23', 'liverpool',
  'test1234', 'test12345', 'testtest', 'demo1234', 'demo12345', 'user1234', 'guest123', 'secret12', 'pass1234',
  'passport', 'pa55word', 'zhang123', 'wang1234', 'li123456', 'abcdefgh', 'abcdefg1', 'aaaaaaaa1', 'caonima1',
]);

const SEQUENCES = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** One character repeated, or a run (or reversed run) of digits, letters or a keyboard row. */
function trivial(p: string): boolean {
  if (new Set(p).size === 1) return true;
  // Two characters alternating (abababab, 12121212) or a short block repeated (123123123, abcabcabc).
  for (let n = 1; n <= 4; n++) if (p.length >= n * 2 && p === p.slice(0, n).repeat(Math.ceil(p.length / n)).slice(0, p.length)) return true;
  const rev = [...p].reverse().join('');
  return SEQUENCES.some((s) => s.includes(p) || s.includes(rev));
}

/**
 * The reason a new password is refused, in Chinese and naming the field (`title`), or null when it
 * will do. `userName` (when known) may not be the password itself.
 */
export function passwordProblem(password: string, opts: { title?: string; userName?: string } = {}): string | null {
  const title = opts.title ?? '密码';
  if ([...password].length < PASSWORD_MIN_LENGTH) return `${title}至少 ${PASSWORD_MIN_LENGTH} 个字符`;
  const lower = password.toLowerCase();
  if (opts.userName && lower.includes(opts.userName.toLowerCase()) && opts.userName.length >= 3) return `${title}不能包含用户名`;
  if (COMMON.has(lower) || trivial(lower)) return `${title}过于常见或有规律，容易被猜到，请换一个`;
  return null;
}
