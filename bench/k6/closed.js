// Closed model: the VU count and duration come from the command line (--vus, --duration).
import http from 'k6/http';

const url = __ENV.TARGET;

export default function () {
  http.get(url);
}
