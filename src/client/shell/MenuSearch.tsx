// Menu search: Ctrl+K (⌘K) anywhere, or "/" outside a text field, opens a box that finds any screen the
// user may open by its title or by the pinyin initials of its title (cgdd → 采购订单); arrow keys move,
// Enter opens, Esc closes. The header button does the same for the mouse.
import { SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Modal, Typography, type InputRef } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { menuScreens } from '../router/screenMenu';
import { useSession } from '../session';
import { buildMenu } from './menuData';
import { searchMenu, type MenuHit } from './menuSearchMatch';

function editable(el: EventTarget | null): boolean {
  const e = el as HTMLElement | null;
  return !!e && (e.tagName === 'INPUT' || e.tagName === 'TEXTAREA' || e.tagName === 'SELECT' || e.isContentEditable);
}

/** A dialog is open: "/" belongs to it (Ctrl+K still opens the search). */
function modalOpen(): boolean {
  return [...document.querySelectorAll('.ant-modal-wrap')].some((w) => getComputedStyle(w).display !== 'none');
}

export function MenuSearch() {
  const session = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const box = useRef<InputRef>(null);
  const items = useMemo<MenuHit[]>(
    () => buildMenu(menuScreens, new Set(session?.functionRights ?? [])).flatMap((s) => s.items.map((i) => ({ route: i.route, title: i.title, group: s.title }))),
    [session],
  );
  const hits = useMemo(() => searchMenu(items, query), [items, query]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const ctrlK = (e.ctrlKey || e.metaKey) && !e.altKey && (e.key === 'k' || e.key === 'K');
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !editable(e.target) && !modalOpen();
      if (!ctrlK && !slash) return;
      e.preventDefault();
      setQuery('');
      setActive(0);
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const go = (hit: MenuHit | undefined) => {
    if (!hit) return;
    setOpen(false);
    navigate(hit.route);
  };

  return (
    <>
      <Button type="text" icon={<SearchOutlined />} aria-label="搜索功能（Ctrl+K）" title="搜索功能（Ctrl+K 或 /）" onClick={() => setOpen(true)}>
        搜索功能
      </Button>
      <Modal open={open} title="搜索功能" footer={null} onCancel={() => setOpen(false)} destroyOnHidden width={520} afterOpenChange={(o) => o && box.current?.focus()}>
        <Input
          ref={box}
          autoFocus
          allowClear
          role="combobox"
          aria-expanded
          aria-controls="menu-search-list"
          aria-activedescendant={hits[active] ? `menu-search-${active}` : undefined}
          aria-label="功能名称或拼音首字母"
          placeholder="功能名称或拼音首字母，如 cgdd（采购订单）"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              setActive((a) => Math.min(a + 1, hits.length - 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => Math.max(a - 1, 0));
            } else if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
              e.preventDefault();
              go(hits[active]);
            }
          }}
        />
        {hits.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有找到功能" />
        ) : (
          <ul id="menu-search-list" role="listbox" aria-label="找到的功能" className="menu-search-list">
            {hits.map((h, i) => (
              <li
                key={h.route}
                id={`menu-search-${i}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'menu-search-item menu-search-active' : 'menu-search-item'}
                onMouseEnter={() => setActive(i)}
                onClick={() => go(h)}
              >
                <span>{h.title}</span>
                <Typography.Text type="secondary">{h.group}</Typography.Text>
              </li>
            ))}
          </ul>
        )}
      </Modal>
    </>
  );
}
