// Tab and history titles tell detail pages apart by their id; a new document reads 新建, not "new".
import { describe, expect, it } from 'vitest';
import { pageTitle } from '../../src/client/shell/pageTracking';
import type { ScreenRoute } from '../../src/client/router/screenTypes';

const screen: ScreenRoute = { file: 'entrepot/receivingNoteDetail', route: '/entrepot/receivingNoteDetail/:id', title: '收货单详情', permission: 'entrepot.receivingNoteDetail', menu: { group: 'entrepot', order: 1 } };

describe('page titles', () => {
  it('a saved document by its id, a new one as 新建', () => {
    expect(pageTitle(screen, '/entrepot/receivingNoteDetail/12')).toBe('收货单详情（12）');
    expect(pageTitle(screen, '/entrepot/receivingNoteDetail/new')).toBe('收货单详情（新建）');
  });
});
