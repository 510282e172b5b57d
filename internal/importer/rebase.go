package importer

import "path/filepath"

// RebaseGRPCPaths rewrites the relative .proto files and import paths of
// every grpc: step, read relative to the source's directory from (k6 reads
// client.load's paths relative to the script), relative to the test file's
// directory to, where a test reads them. Absolute paths stay.
func RebaseGRPCPaths(t *Test, from, to string) {
	rebase := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		rel, err := filepath.Rel(to, filepath.Join(from, p))
		if err != nil {
			return p
		}
		return filepath.ToSlash(rel)
	}
	var walk func(steps []Step)
	walk = func(steps []Step) {
		for i := range steps {
			s := &steps[i]
			if g := s.GRPC; g != nil {
				if len(g.ImportPaths) > 0 { // new slices: a client's paths are shared by its calls' steps
					g.ImportPaths = mapPaths(g.ImportPaths, rebase)
				} else { // the files themselves are relative to the test
					g.Protos = mapPaths(g.Protos, rebase)
				}
			}
			walk(s.Steps)
			walk(s.Then)
			walk(s.Else)
		}
	}
	walk(t.Setup)
	walk(t.Teardown)
	for _, sc := range t.Scenarios {
		walk(sc.Flow)
	}
}

// mapPaths returns f of each path, in a new slice.
func mapPaths(paths []string, f func(string) string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = f(p)
	}
	return out
}
