// WebSocket messages (bench/proto.sh): --vus VUs, each session sending one 16-byte text
// message, then one more in reply to every echo, until 100 echoes arrived; then a new
// session. The same exchange as bench/loadlens/ws.yaml. TARGET is ws://127.0.0.1:PORT/.
import { WebSocket } from 'k6/experimental/websockets';

const msg = '0123456789abcdef';

export default function () {
  const ws = new WebSocket(__ENV.TARGET);
  let n = 0;
  ws.onopen = () => ws.send(msg);
  ws.onmessage = () => {
    n++;
    if (n >= 100) {
      ws.close();
      return;
    }
    ws.send(msg);
  };
  ws.onerror = (e) => console.error(e.error);
}
