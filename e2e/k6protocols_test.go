package e2e

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// k6Examples is the importer's corpus of k6's example scripts.
const k6Examples = "../internal/importer/testdata/k6"

// k6Target is the gRPC address k6's examples default to; a grpc: step's
// target is not a template, so the test's address replaces it.
const k6Target = "127.0.0.1:10000"

// TestK6CorpusProtocols imports k6's gRPC and WebSocket examples (both
// corpora's) with the real binary and runs each against an in-process
// server twice: one that answers as the script expects, where every check
// passes, and one that does not, where every check fails, as k6's own
// would; a script without checks is judged by the messages it received.
// The servers keep what arrived: the call's message as the script wrote
// it, the session's message (Date.now()).
func TestK6CorpusProtocols(t *testing.T) {
	dir := t.TempDir()
	proto := "internal/lib/testutils/grpcservice/route_guide.proto"
	copyFile(t, filepath.Join(k6Examples, proto), filepath.Join(dir, proto))
	if err := os.MkdirAll(filepath.Join(dir, "examples"), 0o755); err != nil {
		t.Fatal(err)
	}
	g := startFeatureServer(t)
	ws := startWSEcho(t)
	checks := func(t *testing.T, bad bool, m map[string]map[string]any) {
		passes, fails := m["checks"]["passes"], m["checks"]["fails"]
		if want := map[bool][2]float64{false: {1, 0}, true: {0, 1}}[bad]; passes != want[0] || fails != want[1] {
			t.Errorf("bad server %v: checks passed %v, failed %v; k6's would %v, %v", bad, passes, fails, want[0], want[1])
		}
	}
	count := func(metric string, good, bad float64) func(*testing.T, bool, map[string]map[string]any) {
		return func(t *testing.T, isBad bool, m map[string]map[string]any) {
			want := map[bool]float64{false: good, true: bad}[isBad]
			if got, _ := m[metric]["count"].(float64); got != want {
				t.Errorf("bad server %v: %s %v, want %v", isBad, metric, m[metric], want)
			}
		}
	}
	for _, tc := range []struct {
		script string // under k6Examples
		setBad func(bad bool)
		sent   func() []string
		want   *regexp.Regexp // every message the server received
		judge  func(t *testing.T, bad bool, metrics map[string]map[string]any)
	}{
		{"examples/grpc_invoke", g.setBad, g.got, regexp.MustCompile(`^410248224,-747127767$`), checks},
		{"examples/grpc_healthcheck", g.setBad, func() []string { return []string{"health"} }, regexp.MustCompile(`^health$`), checks},
		{"examples/websocket", ws.setBad, ws.got, regexp.MustCompile(`^[0-9]{13}$`), checks},
		{"examples-protocols/grpc_reflection", g.setBad, g.got, regexp.MustCompile(`^410248224,-747127767$`), checks},
		// no check: the server's two features arrive, none from NOT_FOUND
		{"examples-protocols/grpc_server_streaming", g.setBad, g.got, regexp.MustCompile(`^(410248224,-747127767|400000000,-750000000)$`), count("grpc_msgs_received", 2, 0)},
		// no check: the timestamp sent is echoed; a refused handshake sends nothing
		{"examples-protocols/websockets_test-echo", ws.setBad, ws.got, regexp.MustCompile(`^[0-9]{13}$`), count("ws_msgs_received", 1, 0)},
	} {
		name := filepath.Base(tc.script)
		t.Run(name, func(t *testing.T) {
			g.reset()
			ws.reset()
			abs, _ := filepath.Abs(filepath.Join(k6Examples, tc.script+".js"))
			out := filepath.Join(dir, "examples", name+".yaml")
			if res := loadlens(t, dir, "import", "k6", abs, "--out", out); res.code != 0 {
				t.Fatalf("import exit %d: %s", res.code, res.stderr)
			}
			test, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(out, []byte(strings.ReplaceAll(string(test), k6Target, g.addr)), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, bad := range []bool{false, true} {
				tc.setBad(bad)
				sum := filepath.Join(dir, name+".json")
				r := loadlens(t, dir, "run", out, "--quiet", "-e", "BASE_URL="+ws.URL, "--summary-json", sum, "--results", "results-"+name)
				if r.code != 0 && r.code != 99 {
					t.Fatalf("bad server %v: run exit %d\n%s%s", bad, r.code, r.stdout, r.stderr)
				}
				tc.judge(t, bad, readSummary(t, sum).Metrics)
			}
			got := tc.sent()
			if len(got) == 0 {
				t.Errorf("the server received nothing")
			}
			for _, m := range got {
				if !tc.want.MatchString(m) {
					t.Errorf("the server received %q, want %s", m, tc.want)
				}
			}
			if t.Failed() {
				t.Logf("the imported test:\n%s", test)
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// featureServer serves k6's route guide FeatureExplorer/GetFeature (from
// its .proto, with dynamic messages) and the health service, with
// reflection; bad answers NOT_FOUND and NOT_SERVING.
type featureServer struct {
	addr   string
	health *health.Server
	mu     sync.Mutex
	bad    bool
	points []string
}

func startFeatureServer(t *testing.T) *featureServer {
	t.Helper()
	fd, err := routeGuide()
	if err != nil {
		t.Fatal(err)
	}
	m := fd.Services().ByName("FeatureExplorer").Methods().ByName("GetFeature")
	f := &featureServer{health: health.NewServer()}
	srv := grpc.NewServer()
	list := fd.Services().ByName("FeatureExplorer").Methods().ByName("ListFeatures")
	srv.RegisterService(&grpc.ServiceDesc{ServiceName: "main.FeatureExplorer", HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{MethodName: "GetFeature", Handler: f.getFeature(m)}},
		Streams: []grpc.StreamDesc{{StreamName: "ListFeatures", ServerStreams: true, Handler: f.listFeatures(list)}}}, struct{}{})
	registerOnce.Do(func() { err = protoregistry.GlobalFiles.RegisterFile(fd) }) // what reflection describes
	if err != nil {
		t.Fatal(err)
	}
	healthpb.RegisterHealthServer(srv, f.health)
	reflection.Register(srv)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(lis) //nolint:errcheck // ends with Stop
	t.Cleanup(srv.Stop)
	f.addr = lis.Addr().String()
	return f
}

// getFeature answers GetFeature with a named feature at the point asked,
// keeping the point; NOT_FOUND when bad.
func (f *featureServer) getFeature(m protoreflect.MethodDescriptor) func(any, context.Context, func(any) error, grpc.UnaryServerInterceptor) (any, error) {
	return func(_ any, _ context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
		in := dynamicpb.NewMessage(m.Input())
		if err := dec(in); err != nil {
			return nil, err
		}
		fields := m.Input().Fields()
		f.mu.Lock()
		defer f.mu.Unlock()
		f.points = append(f.points, in.Get(fields.ByName("latitude")).String()+","+in.Get(fields.ByName("longitude")).String())
		if f.bad {
			return nil, status.Error(codes.NotFound, "no feature there")
		}
		out := dynamicpb.NewMessage(m.Output())
		out.Set(m.Output().Fields().ByName("name"), protoreflect.ValueOfString("a feature"))
		out.Set(m.Output().Fields().ByName("location"), protoreflect.ValueOfMessage(in))
		return out, nil
	}
}

// routeGuide describes the part of k6's route_guide.proto the server
// serves, written here rather than compiled with the compiler loadlens
// uses, so that a fault of that compiler cannot hide on both sides.
func routeGuide() (protoreflect.FileDescriptor, error) {
	field := func(name string, n int32, typ descriptorpb.FieldDescriptorProto_Type, msg string) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(n), Type: typ.Enum(),
			Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), JsonName: proto.String(name)}
		if msg != "" {
			f.TypeName = proto.String(".main." + msg)
		}
		return f
	}
	msg := func(name string, fields ...*descriptorpb.FieldDescriptorProto) *descriptorpb.DescriptorProto {
		return &descriptorpb.DescriptorProto{Name: proto.String(name), Field: fields}
	}
	i32, str, sub := descriptorpb.FieldDescriptorProto_TYPE_INT32, descriptorpb.FieldDescriptorProto_TYPE_STRING, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE
	fdp := &descriptorpb.FileDescriptorProto{Name: proto.String("route_guide.proto"), Package: proto.String("main"), Syntax: proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{
			msg("Point", field("latitude", 1, i32, ""), field("longitude", 2, i32, "")),
			msg("Rectangle", field("lo", 1, sub, "Point"), field("hi", 2, sub, "Point")),
			msg("Feature", field("name", 1, str, ""), field("location", 2, sub, "Point")),
		},
		Service: []*descriptorpb.ServiceDescriptorProto{{Name: proto.String("FeatureExplorer"), Method: []*descriptorpb.MethodDescriptorProto{
			{Name: proto.String("GetFeature"), InputType: proto.String(".main.Point"), OutputType: proto.String(".main.Feature")},
			{Name: proto.String("ListFeatures"), InputType: proto.String(".main.Rectangle"), OutputType: proto.String(".main.Feature"), ServerStreaming: proto.Bool(true)},
		}}},
	}
	return protodesc.NewFile(fdp, nil)
}

// registerOnce registers route_guide.proto for reflection once a test binary.
var registerOnce sync.Once

// listFeatures streams two features within the rectangle asked, at its
// corners, keeping its low corner; NOT_FOUND when bad.
func (f *featureServer) listFeatures(m protoreflect.MethodDescriptor) grpc.StreamHandler {
	return func(_ any, stream grpc.ServerStream) error {
		in := dynamicpb.NewMessage(m.Input())
		if err := stream.RecvMsg(in); err != nil {
			return err
		}
		lo := in.Get(m.Input().Fields().ByName("lo")).Message()
		pt := lo.Descriptor().Fields()
		f.mu.Lock()
		f.points = append(f.points, lo.Get(pt.ByName("latitude")).String()+","+lo.Get(pt.ByName("longitude")).String())
		bad := f.bad
		f.mu.Unlock()
		if bad {
			return status.Error(codes.NotFound, "no features there")
		}
		for _, corner := range []string{"lo", "hi"} {
			out := dynamicpb.NewMessage(m.Output())
			out.Set(m.Output().Fields().ByName("name"), protoreflect.ValueOfString(corner))
			out.Set(m.Output().Fields().ByName("location"), in.Get(m.Input().Fields().ByName(protoreflect.Name(corner))))
			if err := stream.SendMsg(out); err != nil {
				return err
			}
		}
		return nil
	}
}

func (f *featureServer) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.points = nil
}

func (e *wsEcho) reset() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.msgs = nil
}

func (f *featureServer) setBad(bad bool) {
	f.mu.Lock()
	f.bad = bad
	f.mu.Unlock()
	serving := healthpb.HealthCheckResponse_SERVING
	if bad {
		serving = healthpb.HealthCheckResponse_NOT_SERVING
	}
	f.health.SetServingStatus("", serving)
}

func (f *featureServer) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.points...)
}

// wsEcho is a WebSocket echo server keeping the messages it received; bad
// refuses the handshake (403).
type wsEcho struct {
	*httptest.Server
	mu   sync.Mutex
	bad  bool
	msgs []string
}

func startWSEcho(t *testing.T) *wsEcho {
	t.Helper()
	e := &wsEcho{}
	e.Server = httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(e.Close)
	return e
}

func (e *wsEcho) serve(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	bad := e.bad
	e.mu.Unlock()
	if bad {
		http.Error(w, "no", http.StatusForbidden)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	for range 1000 { // bounded: a session of the test sends a few
		typ, msg, err := c.Read(r.Context())
		if err != nil {
			return
		}
		e.mu.Lock()
		e.msgs = append(e.msgs, string(msg))
		e.mu.Unlock()
		if c.Write(r.Context(), typ, msg) != nil {
			return
		}
	}
}

func (e *wsEcho) setBad(bad bool) {
	e.mu.Lock()
	e.bad = bad
	e.mu.Unlock()
}

func (e *wsEcho) got() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.msgs...)
}

// TestK6CorpusCustomMetrics imports k6's custom_metrics.js and runs it
// against a server answering 200, then 500: its counter counts the
// iteration and its rate holds the check's result, as k6's metrics would.
func TestK6CorpusCustomMetrics(t *testing.T) {
	var mu sync.Mutex
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.WriteHeader(status)
	}))
	defer srv.Close()
	dir := t.TempDir()
	abs, _ := filepath.Abs(filepath.Join(k6Examples, "examples", "custom_metrics.js"))
	if res := loadlens(t, dir, "import", "k6", abs, "--out", "t.yaml"); res.code != 0 {
		t.Fatalf("import exit %d: %s", res.code, res.stderr)
	}
	for _, tc := range []struct {
		status int
		passes float64
	}{{http.StatusOK, 1}, {http.StatusInternalServerError, 0}} {
		mu.Lock()
		status = tc.status
		mu.Unlock()
		r := loadlens(t, dir, "run", "t.yaml", "--quiet", "-e", "BASE_URL="+srv.URL, "--summary-json", "s.json", "--results", "results")
		if r.code != 0 && r.code != 99 {
			t.Fatalf("run exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		m := readSummary(t, filepath.Join(dir, "s.json")).Metrics
		if m["my_counter"]["count"] != 1.0 || m["my_rate"]["passes"] != tc.passes || m["my_rate"]["fails"] != 1-tc.passes {
			t.Errorf("status %d: my_counter %v, my_rate %v; k6's would count 1 and hold %v pass", tc.status, m["my_counter"], m["my_rate"], tc.passes)
		}
	}
}
