// Package archtest checks that imports flow one way, from the command
// towards the core: the engine knows nothing of reports, stores or
// dashboards, and the leaf packages know nothing of the rest.
package archtest

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// row is what one package may import: the module's packages (by table
// name: the path in the module, without "internal/"), more of them in its
// tests only, and third-party modules (its tests' included). An allowance
// the package does not use fails too, so the table stays the graph as it
// is, not as it once was.
type row struct {
	imports, tests, modules []string
}

func list(s ...string) []string { return s }

// table is every package of the module, cmd/, e2e/ and bench/ included.
// The pure packages (diagnose, compare, capacity, estimate) return data
// and never import report, web or live: report is the one layer that
// renders, every page in web's shell. A change of imports on purpose:
// ARCHTEST_PRINT=1 go test -run TestImportTable ./internal/archtest
// prints the rows of the tree as it is.
var table = map[string]row{
	// the listeners' tokens and loopback checks (live, otlp)
	"access": {},
	// the run lifecycle: open, run, collect, outputs, conclude
	"app":            {imports: list("boundedfile", "compare", "diagnose", "engine", "history", "historypg", "historystore", "live", "metrics", "otlp", "output", "plan", "proc", "report", "sample", "scrape", "series", "spans", "store", "threshold", "units"), tests: list("metrics/metricstest")},
	"archtest":       {},
	"bench/history":  {imports: list("app", "history")},
	"bench/binsize":  {imports: list("units")},
	"bench/runstats": {imports: list("metrics", "store"), tests: list("sample")},
	"bench/vumem":    {imports: list("units")},
	"bench/wsidle":   {imports: list("engine", "metrics", "plan", "proc", "protocol", "protocol/ws", "sample", "tmpl", "units"), modules: list("github.com/coder/websocket")},
	"bench/truth":    {imports: list("units"), modules: list("golang.org/x/sys")},
	"capacity":       {imports: list("units"), tests: list("golden")},
	// bench/proto.sh's gRPC and WebSocket target (issue 24)
	"bench/protoserve": {modules: list("github.com/coder/websocket", "google.golang.org/grpc")},
	// the use cases, each a package on top of app's run lifecycle
	"capacityrun": {imports: list("app", "capacity", "diagnose", "history", "metrics", "plan", "proc", "report", "sample", "series", "threshold", "units")},
	// the commands; the only package cmd/loadlens imports
	"cli":          {imports: list("app", "capacity", "capacityrun", "comparerun", "demo", "demorun", "dist", "estimate", "estimaterun", "history", "historyrun", "importer", "importer/curl", "importer/har", "importer/k6", "importer/openapi", "k8s", "k8s/kapi", "live", "mock", "plan", "runs", "units"), tests: list("k8s/k8stest", "testkit"), modules: list("k8s.io/api", "k8s.io/apimachinery", "k8s.io/client-go")},
	"cmd/loadlens": {imports: list("cli")},
	"compare":      {imports: list("metrics", "sample", "stats", "units"), tests: list("golden")},
	"comparerun":   {imports: list("app", "compare", "diagnose", "metrics", "report", "series", "store", "units"), tests: list("plan", "proc", "testkit")},
	"demo":         {imports: list("proc", "promtext"), tests: list("otlp", "plan", "sample", "spans", "testkit"), modules: list("github.com/jackc/pgx/v5", "github.com/prometheus/client_model", "github.com/prometheus/common", "github.com/redis/go-redis/v9", "go.opentelemetry.io/proto/otlp", "google.golang.org/protobuf", "modernc.org/sqlite")},
	"demorun":      {imports: list("app", "demo", "diagnose", "otlp", "plan", "report", "units"), tests: list("metrics", "sample")},
	// units only for nouns: report writes the figures
	"diagnose": {imports: list("metrics", "sample", "series", "spans", "stats", "units"), tests: list("golden", "store"), modules: list("modernc.org/sqlite")},
	"dist":     {imports: list("app", "boundedfile", "diagnose", "engine", "metrics", "plan", "proc", "protocol/grpc", "report", "sample", "series", "units"), tests: list("metrics/metricstest", "store", "testkit")},
	// end-to-end tests build and run the binary: only test imports
	"e2e":              {tests: list("capacity", "diagnose", "faultserver", "metrics", "metrics/metricstest", "proc", "report", "sample", "series", "spans", "store", "testkit", "units"), modules: list("github.com/coder/websocket", "github.com/influxdata/line-protocol/v2", "github.com/klauspost/compress", "go.opentelemetry.io/proto/otlp", "google.golang.org/grpc", "google.golang.org/protobuf")},
	"engine":           {imports: list("engine/h1", "engine/h2", "jsonpath", "plan", "proc", "protocol", "protocol/grpc", "protocol/sse", "protocol/ws", "sample", "tmpl", "units"), tests: list("engine/h1/h1test", "faultserver", "testkit"), modules: list("golang.org/x/sys")},
	"engine/abort":     {},
	"engine/h1":        {imports: list("engine/abort"), tests: list("engine/h1/h1test", "testkit")},
	"engine/h2":        {imports: list("engine/abort", "engine/h1"), modules: list("golang.org/x/net")},
	"engine/h1/h1test": {},
	"estimate":         {imports: list("metrics", "threshold", "units"), tests: list("golden")},
	"estimaterun":      {imports: list("app", "capacity", "compare", "estimate", "metrics", "plan", "report", "units"), tests: list("sample", "store", "threshold")},
	// serves faults to tests; only tests import it
	"faultserver": {modules: list("golang.org/x/sys")}, // the kernel's TCP counts: when an idle connection's request arrived
	// compares tests' output with golden files; only tests import it
	"golden": {},
	// compare's Student's t quantile; units for the words of why a run is left out of a figure
	"history": {imports: list("compare", "stats", "units")},
	// the one package that speaks PostgreSQL (pgx) for history
	"historypg":        {imports: list("history", "historystore"), tests: list("testkit"), modules: list("github.com/jackc/pgx/v5")},
	"historyrun":       {imports: list("app", "history", "historypg", "report", "units")},
	"historystore":     {imports: list("history"), modules: list("modernc.org/sqlite")},
	"importer":         {imports: list("plan", "units")},
	"importer/curl":    {imports: list("boundedfile", "importer", "units"), tests: list("testkit"), modules: list("mvdan.cc/sh/v3")},
	"importer/har":     {imports: list("importer", "plan", "units"), tests: list("testkit")},
	"importer/k6":      {imports: list("importer", "units"), tests: list("testkit"), modules: list("github.com/tdewolff/parse/v2")},
	"importer/openapi": {imports: list("importer", "plan", "units"), tests: list("testkit"), modules: list("github.com/goccy/go-yaml")},
	"jsonpath":         {},
	"k8s":              {imports: list("boundedfile", "k8s/kapi", "plan", "units"), tests: list("k8s/k8stest", "testkit"), modules: list("github.com/goccy/go-yaml", "github.com/gorilla/websocket", "k8s.io/api", "k8s.io/apimachinery", "k8s.io/client-go", "k8s.io/streaming", "sigs.k8s.io/yaml")},
	"k8s/kapi":         {modules: list("k8s.io/apimachinery")},
	"k8s/k8stest":      {modules: list("k8s.io/api", "k8s.io/apimachinery", "k8s.io/client-go")},
	"live":             {imports: list("access", "units", "web")},
	// the only user of hdrhistogram-go; units for the counts in threshold reasons
	"metrics":             {imports: list("sample", "threshold", "units"), modules: list("github.com/HdrHistogram/hdrhistogram-go")},
	"metrics/metricstest": {imports: list("metrics", "sample")},
	"mock":                {imports: list("boundedfile", "jsonpath", "proc", "promtext", "tmpl", "yamldoc")}, // its config read as strictly as a test file, not through plan
	"otlp":                {imports: list("access", "sample", "spans"), modules: list("go.opentelemetry.io/collector/pdata", "go.opentelemetry.io/proto/otlp", "google.golang.org/grpc", "google.golang.org/protobuf")},
	"output":              {imports: list("metrics", "plan", "sample"), tests: list("metrics/metricstest"), modules: list("github.com/influxdata/line-protocol/v2", "github.com/klauspost/compress", "github.com/prometheus/prometheus", "go.opentelemetry.io/proto/otlp", "google.golang.org/protobuf")},
	"plan":                {imports: list("boundedfile", "jsonpath", "sample", "series", "threshold", "tmpl", "yamldoc"), tests: list("testkit"), modules: list("github.com/goccy/go-yaml", "golang.org/x/text")}, // x/text: data files in CP949, Latin-1, Shift-JIS, UTF-16
	// the process's CPU and descriptors, the host's /proc/stat
	"proc":     {},
	"promtext": {},
	// the seam of the session protocols, and one package per protocol (docs/protocols.md)
	"protocol":           {imports: list("jsonpath", "plan", "sample", "tmpl")},
	"protocol/grpc":      {imports: list("boundedfile", "engine/h1", "engine/h2", "plan", "protocol", "sample"), tests: list("jsonpath", "protocol/prototest", "tmpl"), modules: list("github.com/bufbuild/protocompile", "golang.org/x/net", "google.golang.org/grpc", "google.golang.org/protobuf")},
	"protocol/sse":       {imports: list("plan", "protocol", "sample", "units"), tests: list("jsonpath", "protocol/prototest", "tmpl"), modules: list("github.com/mccutchen/go-httpbin/v2")},
	"protocol/ws":        {imports: list("plan", "protocol", "sample", "units"), tests: list("jsonpath", "protocol/prototest", "testkit", "tmpl"), modules: list("github.com/coder/websocket", "github.com/gorilla/websocket", "github.com/mccutchen/go-httpbin/v2")},
	"protocol/prototest": {imports: list("protocol", "sample", "tmpl")}, // the protocols' fake VU, for their tests
	// the one layer that renders, every page in web's shell
	"report": {imports: list("capacity", "compare", "diagnose", "estimate", "history", "metrics", "sample", "series", "spans", "threshold", "units", "web"), tests: list("golden", "metrics/metricstest", "plan", "store")},
	"runs":   {imports: list("app", "history", "metrics", "output", "store", "units"), tests: list("plan")},
	// a request's outcome; escapes what the target said as units.Escape does
	"sample": {imports: list("units")},
	// leaves: they import no package of the module
	// a file read with a size bound, refused before it is read
	"boundedfile": {},
	"scrape":      {imports: list("plan", "series"), modules: list("github.com/prometheus/client_model", "github.com/prometheus/common")},
	"series":      {},
	// median, mean, Kendall's tau: shared by compare, diagnose, history
	"stats": {},
	"spans": {imports: list("sample")},
	"store": {imports: list("metrics", "sample", "series", "spans", "threshold"), modules: list("modernc.org/sqlite")},
	// helpers tests of several packages share; only tests import it
	"testkit":   {},
	"threshold": {imports: list("sample")},
	"tmpl":      {},
	"units":     {},
	"web":       {tests: list("units")},
	// the strict YAML reader plan's test files and mock's configs share
	"yamldoc": {imports: list("jsonpath", "tmpl", "units"), tests: list("testkit"), modules: list("github.com/goccy/go-yaml")},
}

func TestImportTable(t *testing.T) {
	g := graph(t)
	if len(g) < 20 {
		t.Fatalf("only %d packages listed; is the module path right?", len(g))
	}
	if os.Getenv("ARCHTEST_PRINT") != "" {
		t.Logf("the tree's rows:\n%s", goTable(g))
	}
	for name, n := range g {
		r, ok := table[name]
		if !ok {
			t.Errorf("%s is not in the table of arch_test.go: add it with what it may import", name)
			continue
		}
		for _, p := range slices.Concat(judge(name, "imports", n.imports, r.imports),
			judge(name, "imports in its tests", n.tests, r.tests),
			judge(name, "imports the module", n.modules, r.modules)) {
			t.Error(p)
		}
		for _, dep := range n.imports {
			if slices.Contains(testOnly, dep) {
				t.Errorf("%s imports %s, which only tests may import", name, dep)
			}
		}
	}
	for name := range table {
		if _, ok := g[name]; !ok {
			t.Errorf("the table has a row for %s, which is not a package of the module: remove it", name)
		}
	}
}

// testOnly are the packages made for tests: only tests may import them.
var testOnly = []string{"golden", "testkit", "faultserver", "engine/h1/h1test", "metrics/metricstest", "k8s/k8stest", "protocol/prototest"}

// judge returns a problem for each import the row does not allow, and for
// each allowance the package does not use.
func judge(name, what string, got, allowed []string) []string {
	var problems []string
	for _, dep := range got {
		if !slices.Contains(allowed, dep) {
			problems = append(problems, fmt.Sprintf("%s %s %s; allowed: %s", name, what, dep, strings.Join(allowed, ", ")))
		}
	}
	for _, dep := range allowed {
		if !slices.Contains(got, dep) {
			problems = append(problems, fmt.Sprintf("%s's row allows that it %s %s, which it does not: remove the allowance", name, what, dep))
		}
	}
	return problems
}

func TestJudgeFindsWhatTheRowDoesNotSay(t *testing.T) {
	for _, tc := range []struct {
		name         string
		got, allowed []string
		want         []string
	}{
		{"as allowed", list("plan", "units"), list("plan", "units"), nil},
		{"an import not allowed", list("plan", "report"), list("plan"), list("engine imports report; allowed: plan")},
		{"an allowance not used", list("plan"), list("plan", "units"), list("engine's row allows that it imports units, which it does not: remove the allowance")},
		{"nothing either way", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := judge("engine", "imports", tc.got, tc.allowed); !slices.Equal(got, tc.want) {
				t.Errorf("judge = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTableNameIsThePathInTheModule(t *testing.T) {
	for in, want := range map[string]string{
		modulePath + "/internal/engine/h1":   "engine/h1",
		modulePath + "/internal/importer/k6": "importer/k6",
		modulePath + "/cmd/loadlens":         "cmd/loadlens",
		"github.com/valyala/fasthttp":        "",
	} {
		if got, _ := tableName(in); got != want {
			t.Errorf("tableName(%s) = %q, want %q", in, got, want)
		}
	}
}
