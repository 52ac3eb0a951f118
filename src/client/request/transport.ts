// The one axios instance every call goes through. Statuses are never thrown on: the request core reads
// the {code,msg,data} envelope whatever the HTTP status. Tests replace `http.defaults.adapter`.

import axios from 'axios';
import { REQUEST_TIMEOUT_MS } from './texts';

export const http = axios.create({
  timeout: REQUEST_TIMEOUT_MS,
  validateStatus: () => true,
});
