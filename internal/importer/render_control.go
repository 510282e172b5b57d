package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
)

// The bounds of the test format's loops, which an import keeps to.
const (
	MaxRepeat      = plan.MaxRepeat      // the most times a repeat: runs its steps
	MaxForEach     = plan.MaxForEach     // the largest max: of a for_each
	DefaultForEach = plan.DefaultForEach // the elements a for_each visits without max:
)

// writeControlStep writes a group:, repeat:, for_each: or set: step, and
// reports whether st was one.
func writeControlStep(b *strings.Builder, indent string, st Step) bool {
	in := indent + "  "
	switch {
	case st.Group != "":
		fmt.Fprintf(b, "%s- group: %s\n", indent, q(st.Group))
	case st.Repeat > 0:
		fmt.Fprintf(b, "%s- repeat: %d\n", indent, st.Repeat)
	case st.ForEach != "":
		fmt.Fprintf(b, "%s- for_each: %s\n%sas: %s\n", indent, st.ForEach, in, st.As)
		if st.EachPath != "" {
			fmt.Fprintf(b, "%spath: %s\n", in, q(st.EachPath))
		}
		if st.Max > 0 {
			fmt.Fprintf(b, "%smax: %s\n", in, strconv.Itoa(st.Max))
		}
	case len(st.Set) > 0:
		parts := make([]string, len(st.Set))
		for i, kv := range st.Set {
			v, _ := kv.Value.(string)
			parts[i] = kv.Key + ": " + q(v)
		}
		fmt.Fprintf(b, "%s- set: {%s}\n", indent, strings.Join(parts, ", "))
		return true
	default:
		return false
	}
	fmt.Fprintf(b, "%ssteps:\n", in)
	for _, x := range st.Steps {
		writeStep(b, in+"  ", x)
	}
	return true
}
