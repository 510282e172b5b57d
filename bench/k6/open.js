// Open model: a constant arrival rate of RATE iterations per second (one GET each) for DURATION.
import http from 'k6/http';

const url = __ENV.TARGET;

export const options = {
  scenarios: {
    open: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE || 5000),
      timeUnit: '1s',
      duration: __ENV.DURATION || '10s',
      preAllocatedVUs: 100,
      maxVUs: 1000,
    },
  },
};

export default function () {
  http.get(url);
}
