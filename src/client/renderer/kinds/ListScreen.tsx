// The `list` screen kind: the screen file's list part drawn by ListView. Column preferences are kept
// under the schema's `name`, or the screen file name (e.g. baseConfig/currency).
import { Card } from 'antd';
import { useMemo } from 'react';
import type { ScreenProps } from '../../router/screenProps';
import { ListView } from '../list/ListView';
import type { ListPart } from '../types';

export function listPartOf(file: ScreenProps['file']): ListPart {
  return file as unknown as ListPart;
}

export default function ListScreen({ meta, file }: ScreenProps) {
  const part = useMemo(() => listPartOf(file), [file]);
  return (
    <Card variant="borderless" className="renderer-screen renderer-list-screen">
      <ListView part={part} listName={part.name ?? meta.file} title={file.title} />
    </Card>
  );
}
