// tabs: sections grouped in tabs (each tab draws its own sections).
import { Tabs } from 'antd';
import type { TabsSection } from '../types';
import { SectionList } from './SectionList';
import type { SectionDef, SectionProps } from './types';

function TabsView({ section, path, record, scope, screenName }: SectionProps) {
  const s = section as TabsSection;
  return (
    <Tabs
      items={s.tabs.map((t, i) => ({
        key: String(i),
        label: t.title,
        children: <SectionList list={t.sections} base={`${path}.tabs[${i}].sections`} record={record} scope={scope} screenName={screenName} />,
      }))}
    />
  );
}

const tabs: SectionDef = { component: TabsView };
export default tabs;
