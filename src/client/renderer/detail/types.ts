// What a detail section type provides.
import type { ComponentType } from 'react';
import type { ActionScope, Row } from '../actions/types';
import type { DetailSection } from '../types';

export interface SectionProps {
  section: DetailSection;
  /** Schema path, e.g. `sections[2]`. */
  path: string;
  record: Row;
  scope: ActionScope;
  /** The screen's file name (related lists derive their column-config name from it). */
  screenName: string;
}

export interface SectionDef {
  component: ComponentType<SectionProps>;
}
