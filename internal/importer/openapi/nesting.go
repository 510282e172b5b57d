package openapi

import (
	"fmt"

	"go.yaml.in/yaml/v4"

	"github.com/loadlens/loadlens/internal/units"
)

// maxNesting is the deepest a spec may nest. Real specs nest a few dozen
// levels; reading Swagger 2.0 takes time in the square of the depth (1,000
// levels: 7 s) and its YAML-to-JSON step memory (10,000 levels: 4 GB).
const maxNesting = 64

// checkNesting refuses a spec that is not YAML (JSON is YAML) or that
// nests deeper than maxNesting, before a parser that is slow on it sees it.
func checkNesting(data []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil { // with yaml's own limit: 10,000 levels
		return fmt.Errorf("not YAML or JSON: %v", err)
	}
	if depth, line := deepest(&doc); depth > maxNesting {
		return fmt.Errorf("the spec nests %s levels deep (at line %d); an import reads specs that nest at most %d levels",
			units.Count(int64(depth)), line, maxNesting)
	}
	return nil
}

// deepest returns how many mappings and sequences nest at n's deepest, and
// the line where that is. Aliases are not followed: each is one node.
func deepest(n *yaml.Node) (depth, line int) {
	line = n.Line
	for _, c := range n.Content {
		if d, l := deepest(c); d > depth {
			depth, line = d, l
		}
	}
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		depth++
	}
	return depth, line
}
