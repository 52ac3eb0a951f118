// A local SMTP server for tests (smtp-server on a free port, no TLS, no auth) and a minimal parser of the
// single-part messages the server sends: headers (encoded words decoded) and the decoded body.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: string;
  headers: Map<string, string>;
  subject: string;
  contentType: string;
  body: string;
}

export interface TestSmtp {
  port: number;
  messages: Received[];
  /** Resolves when at least n messages have arrived. */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** RFC 2047 encoded words: =?UTF-8?B?...?= and =?UTF-8?Q?...?= (adjacent words joined without the space between). */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, charset: string, enc: string, text: string) => {
      const bytes = enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
      return new TextDecoder(charset.toLowerCase()).decode(bytes);
    });
}

function decodeQuotedPrintable(text: string): string {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

export function parseMessage(raw: string, from = '', to: string[] = []): Received {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const bodyText = raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  const cte = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const body = cte === 'base64' ? Buffer.from(bodyText.replace(/\s+/g, ''), 'base64').toString('utf8')
    : cte === 'quoted-printable' ? decodeQuotedPrintable(bodyText)
      : bodyText;
  return {
    from, to, raw, headers,
    subject: decodeWords(headers.get('subject') ?? ''),
    contentType: headers.get('content-type') ?? '',
    body: body.replace(/\r\n/g, '\n').replace(/\n$/, ''),
  };
}

/** Starts the server; `reject` makes it refuse recipients whose address contains that text (550). */
export async function startSmtp(opts: { reject?: string } = {}): Promise<TestSmtp> {
  const messages: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (opts.reject && address.address.includes(opts.reject)) {
        const err = Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        messages.push(parseMessage(Buffer.concat(chunks).toString('utf8'), from, session.envelope.rcptTo.map((r) => r.address)));
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
  return {
    port,
    messages,
    async waitFor(n, ms = 10_000) {
      const until = Date.now() + ms;
      while (messages.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} messages, got ${messages.length}`);
        await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 100); });
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
