// setup() data every VU reads, a helper function, a random sleep, a check of two
// conditions and credentials in URLs: written for the import tests, sends nothing.
import http from 'k6/http';
import { check, sleep } from 'k6';

export const options = { vus: 2, iterations: 4 };

export function setup() {
  const res = http.post('http://user:secret@127.0.0.1:9/login', JSON.stringify({ user: 'admin' }));
  check(res, { 'logged in': (r) => r.status === 200 && r.json('token') !== undefined });
  return { token: res.json('token'), n: 3 };
}

function fetchItems(data, page) {
  return http.get(`http://user:secret@127.0.0.1:9/items?page=${page}&vu=${__VU}`, { headers: { Authorization: `Bearer ${data.token}` } });
}

export default function (data) {
  const res = fetchItems(data, __ITER);
  check(res, { 'ok': (r) => r.status === 200 });
  sleep(Math.random() * 2 + 1);
}

export function teardown(data) {
  http.del(`http://user:secret@127.0.0.1:9/sessions/${data.token}`);
}
