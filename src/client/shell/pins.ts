// Shortcut tiles pinned on /navigation, per account. Until the user changes them, a default set of
// everyday screens is shown (only those the user may open appear).

import { accountKey, readJson, writeJson } from './accountStorage';

export const DEFAULT_PINS: readonly string[] = [
  '/commodity/list',
  '/commodity/inventory',
  '/procurement/supplier',
  '/procurement/list',
  '/market/client',
  '/market/list',
  '/entrepot/inboundTaskList',
  '/entrepot/outboundTask',
  '/financial/workBench',
  '/docRelate',
  '/price',
  '/orderDetail',
];

export function readPins(): string[] {
  const pins = readJson<string[] | null>(accountKey('pins'), null);
  return Array.isArray(pins) ? pins : [...DEFAULT_PINS];
}

export function writePins(pins: readonly string[]): void {
  writeJson(accountKey('pins'), [...new Set(pins)]);
}

export function togglePin(pins: readonly string[], route: string): string[] {
  return pins.includes(route) ? pins.filter((p) => p !== route) : [...pins, route];
}
