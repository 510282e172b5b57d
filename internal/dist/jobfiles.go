package dist

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/loadlens/loadlens/internal/plan"
)

// prepare writes the job's files into a fresh directory, as they lay beside
// the coordinator's test file, and parses the test for this agent's segment.
func (s *session) prepare(j *job) ready {
	s.cleanup()
	seg, err := plan.ParseSegment(j.Segment)
	if err != nil {
		return ready{Error: err.Error()}
	}
	dir, err := os.MkdirTemp("", "loadlens-agent-")
	if err != nil {
		return ready{Error: err.Error()}
	}
	s.dir = dir
	name := filepath.Base(j.File)
	if !filepath.IsLocal(name) {
		return ready{Error: fmt.Sprintf("bad test file name %q", j.File)}
	}
	for rel, b := range j.Files {
		if !filepath.IsLocal(rel) {
			return ready{Error: fmt.Sprintf("data file %q is not below the test file's directory", rel)}
		}
		full := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			return ready{Error: err.Error()}
		}
		if err := os.WriteFile(full, b, 0o600); err != nil {
			return ready{Error: err.Error()}
		}
	}
	m := plan.Machine{}
	if s.cfg.Machine != nil {
		m = s.cfg.Machine(seg)
	}
	env := func(k string) (string, bool) { v, ok := j.Env[k]; return v, ok }
	p, err := plan.ParseFor(m, filepath.Join(dir, name), j.Source, env)
	if err != nil {
		return ready{Error: err.Error()}
	}
	s.plan, s.seg = p, seg
	fmt.Fprintf(s.cfg.Out, "agent: test %q, segment %s\n", p.Name, seg)
	return ready{Endpoints: len(p.Layout.Endpoints), Scenarios: len(p.Layout.Scenarios), Checks: len(p.Layout.Checks)}
}

// cleanup removes the job's files.
func (s *session) cleanup() {
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
		s.dir = ""
	}
}
