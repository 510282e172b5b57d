package dist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/loadlens/loadlens/internal/boundedfile"
	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/grpc"
)

// recordingEnv wraps an environment lookup and keeps what the test read, so
// the agents get those values and no others.
type recordingEnv struct {
	mu   sync.Mutex
	env  func(string) (string, bool)
	read map[string]string
}

func (r *recordingEnv) lookup(k string) (string, bool) {
	v, ok := r.env(k)
	r.mu.Lock()
	if ok {
		r.read[k] = v
	}
	r.mu.Unlock()
	return v, ok
}

// loadTest reads and parses the test file the way each agent will, and
// makes the job every agent gets (less its segment).
func loadTest(file string, source []byte, env func(string) (string, bool)) (*plan.Plan, job, error) {
	if env == nil {
		env = os.LookupEnv
	}
	rec := &recordingEnv{env: env, read: map[string]string{}}
	if source != nil { // URL mode: the test the flags make, with no file or data files of its own
		p, err := plan.Parse("", source, rec.lookup)
		if err != nil {
			return nil, job{}, err
		}
		return p, job{File: urlTestName, Source: source, Files: map[string][]byte{}, Env: rec.read}, nil
	}
	p, err := plan.ParseFile(file, rec.lookup)
	if err == nil {
		err = engine.CheckSessions(p) // what the agents' runs would find once started
	}
	if err != nil {
		return nil, job{}, err
	}
	if p.Setup != nil || p.Teardown != nil {
		return nil, job{}, fmt.Errorf("%s: setup: and teardown: run only in a local run for now: a distributed run would run them once per agent; run the test without --agents, or move them out", file)
	}
	src, err := os.ReadFile(file) // the raw text: plan.Source may have credentials redacted
	if err != nil {
		return nil, job{}, err
	}
	j := job{File: filepath.Base(file), Source: src, Files: map[string][]byte{}, Env: rec.read}
	if err := collectFiles(j.Files, file, p); err != nil {
		return nil, job{}, err
	}
	return p, j, nil
}

// Files reads the files a test names, by their paths relative to the test
// file (see collectFiles), as every agent gets them beside the test.
func Files(p *plan.Plan) (map[string][]byte, error) {
	files := map[string][]byte{}
	return files, collectFiles(files, p.File, p)
}

// collectFiles adds every file the test names to the files sent beside
// it: its scenarios' data files, its requests' body files and its gRPC
// steps' .proto files (their imports too) or protosets.
func collectFiles(files map[string][]byte, file string, p *plan.Plan) error {
	for _, s := range p.Scenarios {
		var err error
		plan.Walk(s.Flow, func(st *plan.Step) { // steps nested in groups and loops too
			switch {
			case err != nil:
			case st.Request != nil && st.Request.BodyFile != "":
				err = sendFile(files, file, st.Request.BodyFile, "body file", st.Request.BodyFileAt)
			case st.Session != nil && st.Session.GRPC != nil:
				err = sendProtos(files, file, st.Session.GRPC)
			}
		})
		if err == nil && s.Data != nil {
			err = sendFile(files, file, s.Data.File, "data file", s.Data.FileAt)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// sendProtos adds the files a gRPC step's descriptors are read from, at
// their paths relative to the test file, where the agent's copy of the
// test looks for them.
func sendProtos(files map[string][]byte, test string, g *plan.GRPC) error {
	paths, err := grpc.SourceFiles(g)
	if err != nil {
		return err // it names the test's file and line
	}
	dir, err := filepath.Abs(filepath.Dir(test))
	if err != nil {
		return err
	}
	for _, path := range paths {
		abs, err := filepath.Abs(path) // relative to the working directory when the test's path is
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, abs)
		if err != nil || !filepath.IsLocal(rel) {
			return refusal(test, g.ProtoAt, ".proto file %s: a distributed run sends the test's files to the agents beside it, so .proto files, protosets and import_paths must be below the test file's directory", path)
		}
		if err := sendFile(files, test, rel, ".proto file", g.ProtoAt); err != nil {
			return err
		}
	}
	return nil
}

// sendFile adds a file the test names to the files sent beside it, as the
// test wrote its path. The path must stay below the test file's directory,
// and so must the file it leads to through symlinks: a link to /etc/shadow
// beside the test once sent its content to the agents and the target.
func sendFile(files map[string][]byte, test, rel, what string, at plan.Error) error {
	if !filepath.IsLocal(filepath.Clean(rel)) {
		return refusal(test, at, "%s %s: a distributed run sends the test's files to the agents beside it, so the path must be relative and below the test file's directory", what, rel)
	}
	real, err := resolveBelow(filepath.Dir(test), rel)
	var out *outsideError
	switch {
	case errors.As(err, &out):
		return refusal(test, at, "%s %s leads to %s, outside the test file's directory: a distributed run sends the test's files to the agents beside it, so the file, symlinks followed, must be below the test file's directory", what, rel, out.real)
	case err != nil:
		return refusal(test, at, "%s %s: %v", what, rel, err)
	}
	b, err := boundedfile.Read(real, maxFrame, true)
	var big *boundedfile.TooLargeError
	switch {
	case errors.As(err, &big):
		return refusal(test, at, "%s %s is %s; a distributed run sends at most %d MiB to an agent", what, rel, big, maxFrame>>20)
	case err != nil:
		return refusal(test, at, "%s %s: %v", what, rel, boundedfile.Cause(err))
	}
	files[rel] = b
	return nil
}

// refusal is an error at the test's key that names a file; at is zero for
// a file no key names (a URL-mode test), and the test's path stands.
func refusal(test string, at plan.Error, format string, args ...any) error {
	if at.File == "" {
		at.File = test
	}
	at.Msg = fmt.Sprintf(format, args...)
	return &at
}

// urlTestName is the file name agents give a URL-mode test.
const urlTestName = "url-test.yaml"

// segments splits the whole test into n exact, equal segments [i/n, (i+1)/n).
func segments(n int) []plan.Segment {
	out := make([]plan.Segment, n)
	for i := range out {
		out[i] = plan.Segment{Start: plan.Frac{Num: uint64(i), Den: uint64(n)}, End: plan.Frac{Num: uint64(i + 1), Den: uint64(n)}}
	}
	return out
}
