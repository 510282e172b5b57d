package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/importer"
	"github.com/loadlens/loadlens/internal/importer/curl"
	"github.com/loadlens/loadlens/internal/importer/har"
	"github.com/loadlens/loadlens/internal/importer/k6"
	"github.com/loadlens/loadlens/internal/importer/openapi"
	"github.com/loadlens/loadlens/internal/units"
)

const importUsage = "import <kind> <source> [flags]"

// importKinds are what import reads, as its subcommands.
var importKinds = []command{
	{"import openapi", "import openapi <spec.yaml|json> [flags]", "a test from an OpenAPI 3.0/3.1 or Swagger 2.0 spec", nil},
	{"import har", "import har <recording.har> [flags]", "a test from a browser recording", nil},
	{"import curl", "import curl '<curl ...>' | - [flags]", "a test from curl command lines", nil},
	{"import k6", "import k6 <script.js> [flags]", "a test from a k6 script (the common subset)", nil},
}

// importCmd turns an OpenAPI spec, a HAR recording, curl command lines or a
// k6 script into a test file that validates.
func importCmd(_ context.Context, e *env, args []string) int {
	if len(args) == 0 || !slices.ContainsFunc(importKinds, func(c command) bool { return c.name == "import "+args[0] }) {
		fs := newFlagSet(e, "import", importUsage)
		pos, err := parseArgs(fs, args)
		if err != nil {
			return app.ExitBadInput
		}
		if len(pos) == 0 {
			return fail(e, usageErr("import needs a kind: loadlens %s (openapi, har, curl or k6)", importUsage))
		}
		return fail(e, usageErr("unknown import kind %q: openapi, har, curl or k6", pos[0]))
	}
	kind := args[0]
	fs := newFlagSet(e, "import "+kind, "import "+kind+" <source> [flags]")
	out := fs.String("out", "", "write the test here (default: standard output)")
	name := fs.String("name", "", "the test's name (default: from the source)")
	vus := fs.Int("vus", 1, "VUs of the test's scenario (openapi, har, curl)")
	rate := fs.Float64("rate", 0, "an arrival rate instead of VUs: iterations per second (openapi, har, curl)")
	duration := fs.String("duration", "1m", "the scenario's duration; the test reads DURATION from the environment first (openapi, har, curl)")
	var harOpts harFlags
	if kind == "har" {
		harOpts.register(fs)
	}
	var baseURL string
	if kind == "openapi" {
		fs.StringVar(&baseURL, "base-url", "", "the base URL (default: the spec's first server, overridable with BASE_URL in the environment)")
	}
	pos, err := parseArgs(fs, args[1:])
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) == 0 {
		return fail(e, usageErr("import %s needs a source: loadlens %s", kind, importUsage))
	}
	var t *importer.Test
	source := pos[0]
	switch kind {
	case "curl":
		t, err = importCurl(pos)
	case "openapi", "har", "k6":
		if len(pos) != 1 {
			return fail(e, usageErr("import %s takes one file", kind))
		}
		t, err = importFile(kind, source, baseURL, harOpts)
	}
	if err != nil {
		return fail(e, usageErr("import %s: %v", kind, err))
	}
	if *name != "" {
		t.Name = *name
	}
	if kind != "k6" {
		for _, s := range t.Scenarios {
			if isDefaultLoad(s.Load) {
				s.Load = importer.Load(*vus, *rate, *duration)
			}
		}
	}
	file := *out
	if file == "" {
		file = "imported.yaml"
	}
	if kind == "k6" {
		rebaseProtos(t, source, file)
	}
	text, err := importer.Render(t, file)
	if err != nil {
		if errors.Is(err, importer.ErrTooLarge) && kind == "har" {
			err = fmt.Errorf("%w\n(--max-entries N or --exclude REGEX imports less of a recording)", err)
		}
		return fail(e, usageErr("import %s: %s: %v", kind, source, err)) // all of it: the test's own errors alone would not say why
	}
	return writeImport(e, t, text, *out)
}

// writeImport says what the import read and left out, and writes the
// test to out (standard output when "").
func writeImport(e *env, t *importer.Test, text []byte, out string) int {
	for _, f := range t.Read {
		fmt.Fprint(e.stderr, units.Wrap(f.String(), units.Columns, "read into the test: ", "  "))
	}
	for _, n := range t.NotConverted {
		fmt.Fprint(e.stderr, units.Wrap(n, units.Columns, "not converted: ", "  "))
	}
	if out == "" {
		e.stdout.Write(text)
		return app.ExitOK
	}
	if err := os.WriteFile(out, text, 0o644); err != nil {
		return fail(e, err)
	}
	said := fmt.Sprintf("%s: %s, %s%s; check it with: %s", out, units.CountOf(int64(len(t.Scenarios)), "scenario", "scenarios"),
		units.CountOf(int64(requestSteps(t)), "request step", "request steps"), notConvertedNote(t), strings.ReplaceAll("loadlens validate "+filepath.Clean(out), " ", units.Keep))
	fmt.Fprint(e.stdout, units.Wrap(said, units.Columns, "", "  "))
	return app.ExitOK
}

// importCurl imports curl command lines: given as arguments, on standard
// input (-), or in a file (or a pipe: <(pbpaste)).
func importCurl(pos []string) (*importer.Test, error) {
	source, text := pos[0], strings.Join(pos, " ")
	fromFile := false
	if source == "-" {
		b, err := readSource(os.Stdin, maxCurlSource)
		if err != nil {
			return nil, fmt.Errorf("standard input: %w", err)
		}
		text = string(b)
	} else if f := strings.Fields(source); len(pos) == 1 && (len(f) == 0 || f[0] != "curl") { // curl-lines.txt is a file
		if b, err := readCurlFile(source); err == nil {
			text, fromFile = string(b), true
		} else if !errors.Is(err, iofs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
	}
	t, err := curl.Import(text)
	if err != nil && fromFile {
		err = fmt.Errorf("%s: %w", source, err) // read from a file: name it
	}
	return t, err
}

// isDefaultLoad reports whether a scenario has the load an import gives
// when its source has none, which the load flags replace.
func isDefaultLoad(load []importer.KV) bool {
	d := importer.DefaultLoad()
	if len(load) != len(d) {
		return false
	}
	for i := range d {
		if load[i] != d[i] {
			return false
		}
	}
	return true
}

func requestSteps(t *importer.Test) int {
	n := 0
	for _, s := range t.Scenarios {
		importer.EachStep(s.Flow, func(st *importer.Step) { // requests in groups, loops and branches count too
			if st.Method != "" || st.GRPC != nil || st.WS != nil { // not a think, set: or add:
				n++
			}
		})
	}
	return n
}

func notConvertedNote(t *importer.Test) string {
	if len(t.NotConverted) == 0 {
		return ""
	}
	return ", " + units.CountOf(int64(len(t.NotConverted)), "thing", "things") + " not converted (listed above and at the top of the file)"
}

// harFlags are the HAR import's options.
type harFlags struct {
	keepStatic bool
	exclude    listFlag
	hosts      listFlag
	allHosts   bool
	maxThink   time.Duration
	minThink   time.Duration
	maxEntries int
}

func (h *harFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&h.keepStatic, "keep-static", false, "keep requests for images, styles, scripts, fonts and media")
	fs.Var(&h.exclude, "exclude", "leave out requests whose URL matches this regex (repeatable)")
	fs.Var(&h.hosts, "host", "keep requests to this host too, besides the first request's (repeatable)")
	fs.BoolVar(&h.allHosts, "all-hosts", false, "keep requests to every host (third parties too: careful, a test loads them)")
	fs.DurationVar(&h.minThink, "min-think", 100*time.Millisecond, "pauses shorter than this are the browser's and are dropped")
	fs.DurationVar(&h.maxThink, "max-think", 30*time.Second, "longer pauses are cut to this")
	fs.IntVar(&h.maxEntries, "max-entries", har.DefaultMaxEntries, "read at most this many requests (static assets aside); the rest are counted and left out")
}

// options turns the flags into the HAR import's options.
func (h *harFlags) options() (har.Options, error) {
	o := har.DefaultOptions()
	o.KeepStatic, o.MinThink, o.MaxThink, o.MaxEntries = h.keepStatic, h.minThink, h.maxThink, h.maxEntries
	if h.maxEntries <= 0 {
		return o, usageErr("--max-entries %d: give a number of requests above 0", h.maxEntries)
	}
	for _, x := range h.exclude {
		re, err := regexp.Compile(x)
		if err != nil {
			return o, usageErr("--exclude %q: %v", x, err)
		}
		o.Exclude = append(o.Exclude, re)
	}
	o.Hosts = h.hosts
	if h.allHosts {
		o.Hosts = append(o.Hosts, "*")
	}
	return o, nil
}

// importFile imports a file of kind.
func importFile(kind, path, baseURL string, hf harFlags) (*importer.Test, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := importOpen(kind, f, path, baseURL, hf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err) // every import error names the file
	}
	return t, nil
}

// importOpen imports the open file f, at path, of kind.
func importOpen(kind string, f *os.File, path, baseURL string, hf harFlags) (*importer.Test, error) {
	switch kind {
	case "openapi":
		data, err := readSource(f, maxSpec)
		if err != nil {
			return nil, err
		}
		return openapi.Import(data, filepath.Base(path), baseURL)
	case "k6":
		data, err := readSource(f, maxScript)
		if err != nil {
			return nil, err
		}
		return k6.Import(data, filepath.Base(path))
	case "har":
		opt, err := hf.options()
		if err != nil {
			return nil, err
		}
		return har.Import(f, filepath.Base(path), opt)
	}
	return nil, fmt.Errorf("unknown import kind %q", kind)
}

// The most an import reads of its source; a larger one is refused, not cut.
const (
	maxSpec       = 64 << 20 // an OpenAPI spec
	maxScript     = 16 << 20 // a k6 script
	maxCurlSource = 16 << 20 // curl command lines
)

// readSource reads all of r, refusing more than limit bytes: a source cut
// short would fail to parse where it was cut, which misleads, and /dev/zero
// never ends.
func readSource(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("more than %s; an import reads at most %s of its source", units.Size(limit), units.Size(limit))
	}
	return b, nil
}

// readCurlFile reads a file of curl command lines (or a pipe: <(pbpaste)).
func readCurlFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSource(f, maxCurlSource)
}

// rebaseProtos writes the k6 script's .proto paths, which k6 reads relative
// to the script, relative to the test file at file.
func rebaseProtos(t *importer.Test, script, file string) {
	from, err1 := filepath.Abs(filepath.Dir(script))
	to, err2 := filepath.Abs(filepath.Dir(file))
	if err1 == nil && err2 == nil {
		importer.RebaseGRPCPaths(t, from, to)
	}
}
