// Memory: VUS VUs, each holding one idle WebSocket session open (bench/wsidle).
import { WebSocket } from 'k6/experimental/websockets';

export const options = {
  scenarios: {
    idle: {
      executor: 'per-vu-iterations',
      vus: Number(__ENV.VUS || 10000),
      iterations: 1,
      maxDuration: '10m',
    },
  },
};

export default function () {
  const ws = new WebSocket(__ENV.TARGET);
  ws.onerror = (e) => console.error(e.error);
  // Nothing is sent and nothing arrives: the session stays open until
  // bench/wsidle stops k6.
}
