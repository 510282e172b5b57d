// Two scenarios with their own executors and functions, in the shape of the
// k6 docs' "Scenarios" examples: an open model for browsing and a ramp of
// VUs for the API, each with thresholds of its own.
import http from 'k6/http';
import { check, sleep } from 'k6';
import { randomIntBetween } from 'https://jslib.k6.io/k6-utils/1.2.0/index.js';

export const options = {
  scenarios: {
    browse: {
      executor: 'constant-arrival-rate',
      rate: 30,
      timeUnit: '1s',
      duration: '1m',
      preAllocatedVUs: 50,
      maxVUs: 100,
      exec: 'browse',
    },
    api: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '20s', target: 10 },
        { duration: '40s', target: 10 },
      ],
      gracefulRampDown: '5s',
      startTime: '10s',
      exec: 'api',
    },
  },
  thresholds: {
    'http_req_duration{scenario:browse}': ['p(99)<500'],
    checks: [{ threshold: 'rate>0.99', abortOnFail: true, delayAbortEval: '10s' }],
    'http_req_duration{name:PublicCrocs}': ['avg<400'],
  },
};

export function browse() {
  const res = http.get('https://test.k6.io/news.php');
  check(res, {
    'is status 200': (r) => r.status === 200,
    'has the news': (r) => r.body.includes('News'),
  });
}

export function api() {
  const id = randomIntBetween(1, 8);
  const res = http.get(`https://test-api.k6.io/public/crocodiles/${id}/`, { tags: { name: 'PublicCrocs' } });
  check(res, { 'croc has a name': (r) => r.json('name') !== undefined });
  sleep(randomIntBetween(1, 3));
}
