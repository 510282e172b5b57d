// gRPC unary calls (bench/proto.sh): --vus VUs, each with its own connection (k6's VUs do not
// share one), calling grpc-go's interop server's UnaryCall back to back; the same call as
// bench/loadlens/grpc.yaml and ghz. TARGET is host:port, PROTOS the directory of grpc/testing.
import grpc from 'k6/net/grpc';

const client = new grpc.Client();
client.load([__ENV.PROTOS], 'grpc/testing/test.proto');
let connected = false;

export default function () {
  if (!connected) {
    client.connect(__ENV.TARGET, { plaintext: true });
    connected = true;
  }
  const res = client.invoke('grpc.testing.TestService/UnaryCall', {
    response_size: 100,
    payload: { body: 'aGVsbG8gd29ybGQ=' },
  });
  if (res.status !== grpc.StatusOK) {
    throw new Error(`status ${res.status}`);
  }
}
