// React access to choices and trees, loaded once per source and shared through the module caches.
import { useEffect, useState } from 'react';
import { hasOptions, loadOptions, loadTree, type TreeNode } from './options';
import type { OptionItem, OptionsSource, RemoteTree } from '../types';

export function useOptions(src: OptionsSource): { options: OptionItem[]; loading: boolean } {
  const staticList = Array.isArray(src.options) ? src.options : null;
  const key = staticList ? '' : JSON.stringify({ o: src.options ?? null, d: src.dict ?? null });
  const [state, setState] = useState<{ key: string; options: OptionItem[]; loading: boolean }>({ key, options: [], loading: hasOptions(src) });
  useEffect(() => {
    if (staticList || !hasOptions(src)) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    void loadOptions(src).then((options) => live && setState({ key, options, loading: false }));
    return () => {
      live = false;
    };
    // `key` stands for the source's content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (staticList) return { options: staticList, loading: false };
  return { options: state.options, loading: state.loading };
}

export function useTree(src: RemoteTree | undefined): { tree: TreeNode[]; loading: boolean } {
  const key = src ? JSON.stringify(src) : '';
  const [state, setState] = useState<{ tree: TreeNode[]; loading: boolean }>({ tree: [], loading: !!src });
  useEffect(() => {
    if (!src) return;
    let live = true;
    void loadTree(src).then((tree) => live && setState({ tree, loading: false }));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state;
}
