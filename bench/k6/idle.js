// Memory: VUS VUs, each sending one GET then sleeping 1 s, for DURATION.
import http from 'k6/http';
import { sleep } from 'k6';

const url = __ENV.TARGET;

export const options = {
  scenarios: {
    idle: {
      executor: 'constant-vus',
      vus: Number(__ENV.VUS || 10000),
      duration: __ENV.DURATION || '15s',
    },
  },
};

export default function () {
  http.get(url);
  sleep(1);
}
