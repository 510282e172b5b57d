// Log in, keep the token, and use an authenticated API, in the shape of the
// k6 docs' "API CRUD operations" example; with a few things loadlens does
// not convert (a custom metric, a branch, a batch), to show they are listed.
import http from 'k6/http';
import { check, group, sleep } from 'k6';
import { Trend } from 'k6/metrics';

const BASE_URL = __ENV.BASE_URL || 'https://test-api.k6.io';
const USERNAME = 'TestUser';
const PASSWORD = 'SuperCroc2020';
const createTime = new Trend('create_time');

export const options = {
  vus: 5,
  duration: '30s',
  thresholds: { http_req_failed: ['rate<0.05'] },
};

export default function () {
  const loginRes = http.post(`${BASE_URL}/auth/token/login/`, JSON.stringify({ username: USERNAME, password: PASSWORD }), {
    headers: { 'Content-Type': 'application/json' },
  });
  check(loginRes, {
    'logged in': (r) => r.status === 200,
    'has an access token': (r) => r.json('access') !== undefined,
  });
  const access = loginRes.json('access');
  const params = { headers: { Authorization: `Bearer ${access}`, 'Content-Type': 'application/json' } };

  group('create and read a crocodile', function () {
    const created = http.post(`${BASE_URL}/my/crocodiles/`, JSON.stringify({ name: `Croc ${__VU}-${__ITER}`, sex: 'M', date_of_birth: '2001-01-01' }), params);
    check(created, { 'croc created': (r) => r.status === 201 });
    createTime.add(created.timings.duration);
    const crocId = created.json().id;
    const read = http.get(`${BASE_URL}/my/crocodiles/${crocId}/`, params);
    check(read, { 'same name': (r) => r.json().sex === 'M' });
    if (read.status !== 200) {
      console.log('unexpected status ' + read.status);
    }
  });

  http.batch([['GET', `${BASE_URL}/public/crocodiles/1/`], ['GET', `${BASE_URL}/public/crocodiles/2/`]]);
  sleep(Math.random() * 2);
}
