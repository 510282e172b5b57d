package k8s

import (
	"errors"
	"fmt"
	"strings"

	"github.com/loadlens/loadlens/internal/boundedfile"
	"github.com/loadlens/loadlens/internal/plan"
)

// maxOutputsFile is the most the outputs file may hold: a Secret's 1 MiB.
const maxOutputsFile = 1 << 20

// ReadOutputs reads the coordinator's --out KIND=URL outputs, one a line,
// from the file the run's Secret mounts in its pod (OutputsEnv names it),
// so that their credentials are in no object's spec.
func ReadOutputs(path string) ([]string, error) {
	b, err := boundedfile.Read(path, maxOutputsFile, true)
	var tl *boundedfile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, fmt.Errorf("%s: more than a Secret's 1 MiB of outputs", path)
	case err != nil:
		return nil, fmt.Errorf("$%s: %w", OutputsEnv, err)
	}
	var outs []string
	for i, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if _, err := plan.ParseOutput(line); err != nil { // its messages redact the URL
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		outs = append(outs, line)
	}
	return outs, nil
}
