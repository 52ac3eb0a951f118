// image: a thumbnail from storage (/storage/api/980106, default size 80, spec §9). A list of media
// ids shows the first. Lazy-loaded by the browser so a long page fetches only what is on screen.
import { imageUrl } from '../../request';
import { EMPTY, isEmpty, type ColumnTypeDef } from './types';

const image: ColumnTypeDef = {
  align: 'center',
  width: 80,
  cell(column) {
    const empty = column.empty ?? EMPTY;
    const size = column.size ?? 80;
    const shown = Math.min(48, size);
    return (v) => {
      const id = Array.isArray(v) ? v[0] : v;
      if (isEmpty(id)) return empty;
      return (
        <img
          src={imageUrl(String(id), size)}
          alt=""
          loading="lazy"
          width={shown}
          height={shown}
          style={{ objectFit: 'contain', display: 'block', margin: '0 auto' }}
        />
      );
    };
  },
};
export default image;
