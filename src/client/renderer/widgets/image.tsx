// image upload (see upload.tsx).
import { imageWidget } from './upload';
export default imageWidget;
