// IPv4/IPv6 addresses and CIDR ranges, matched with node's BlockList (IPv4-mapped IPv6 normalised).
import net from 'node:net';

export function normaliseIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1] : ip;
}

/** Parses "1.2.3.4", "10.0.0.0/8", "2001:db8::/32"; returns null when the text is not one of them. */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [addr, prefixText, ...rest] = text.trim().split('/');
  if (rest.length) return null;
  const address = normaliseIp(addr);
  const v = net.isIP(address);
  if (!v) return null;
  const family = v === 4 ? 'ipv4' : 'ipv6';
  const max = v === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return null;
  return { address, prefix, family };
}

export function ipAllowed(ip: string, entries: string[]): boolean {
  const list = new net.BlockList();
  for (const e of entries) {
    const c = parseCidr(e);
    if (c) list.addSubnet(c.address, c.prefix, c.family);
  }
  const addr = normaliseIp(ip);
  const v = net.isIP(addr);
  if (!v) return false;
  return list.check(addr, v === 4 ? 'ipv4' : 'ipv6');
}
