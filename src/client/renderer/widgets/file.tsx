// file upload (see upload.tsx).
import { fileWidget } from './upload';
export default fileWidget;
