package importer

import (
	"fmt"
	"strconv"
	"strings"
)

// grpcCodes are gRPC's status codes by number, as a grpc: step's status check names them.
var grpcCodes = []string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
	"OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

// GRPCCode returns a gRPC status code's name, OK for 0.
func GRPCCode(n int) string {
	if n >= 0 && n < len(grpcCodes) {
		return grpcCodes[n]
	}
	return strconv.Itoa(n)
}

// grpcStatusYAML writes a status check of a grpc: step, the codes by name.
func grpcStatusYAML(c Check) string {
	names := make([]string, len(c.Status))
	for i, n := range c.Status {
		names[i] = GRPCCode(n)
	}
	v := names[0]
	if len(names) > 1 {
		v = "[" + strings.Join(names, ", ") + "]"
	}
	if c.Name != "" {
		return "{name: " + jsonString(c.Name) + ", status: " + v + "}"
	}
	return "{status: " + v + "}"
}

// writeSessionStep writes a grpc:, ws: or add: step, and reports whether st was one.
func writeSessionStep(b *strings.Builder, indent string, st Step) bool {
	in := indent + "  "
	switch {
	case st.If != "":
		keyword := "if"
		if st.Unless {
			keyword = "unless"
		}
		fmt.Fprintf(b, "%s- %s: %s\n", indent, keyword, st.If)
		for _, part := range []struct {
			key   string
			steps []Step
		}{{"then", st.Then}, {"else", st.Else}} {
			if len(part.steps) > 0 {
				fmt.Fprintf(b, "%s%s:\n", in, part.key)
				for _, x := range part.steps {
					writeStep(b, in+"  ", x)
				}
			}
		}
		return true
	case len(st.Add) > 0:
		parts := make([]string, len(st.Add))
		for i, kv := range st.Add {
			v, _ := kv.Value.(string)
			if r, ok := kv.Value.(Raw); ok {
				v = string(r)
			} else {
				v = q(v)
			}
			parts[i] = q(kv.Key) + ": " + v
		}
		fmt.Fprintf(b, "%s- add: {%s}\n", indent, strings.Join(parts, ", "))
		return true
	case st.GRPC != nil:
		writeGRPC(b, indent, st)
	case st.WS != nil:
		writeWS(b, indent, st)
	default:
		return false
	}
	if st.Timeout != "" {
		fmt.Fprintf(b, "%stimeout: %s\n", in, st.Timeout)
	}
	writeChecks(b, in, st)
	return true
}

func writeGRPC(b *strings.Builder, indent string, st Step) {
	in := indent + "  "
	g := st.GRPC
	fmt.Fprintf(b, "%s- grpc: %s\n%smethod: %s\n", indent, q(g.Target), in, q(g.Method))
	if st.Name != "" {
		fmt.Fprintf(b, "%sname: %s\n", in, q(st.Name))
	}
	if len(g.Protos) > 0 {
		fmt.Fprintf(b, "%sproto: %s\n", in, qList(g.Protos))
		if len(g.ImportPaths) > 0 {
			fmt.Fprintf(b, "%simport_paths: %s\n", in, qList(g.ImportPaths))
		}
	}
	if len(st.Headers) > 0 {
		fmt.Fprintf(b, "%smetadata:\n", in)
		for _, h := range st.Headers {
			fmt.Fprintf(b, "%s  %s: %s\n", in, q(h.Name), q(h.Value))
		}
	}
	if g.Message != "" {
		fmt.Fprintf(b, "%smessage: %s\n", in, g.Message)
	}
	if len(g.Messages) > 0 {
		fmt.Fprintf(b, "%smessages:\n", in)
		for _, m := range g.Messages {
			fmt.Fprintf(b, "%s  - %s\n", in, m)
		}
	}
}

func writeWS(b *strings.Builder, indent string, st Step) {
	in := indent + "  "
	w := st.WS
	fmt.Fprintf(b, "%s- ws: %s\n", indent, q(st.Path))
	if st.Name != "" {
		fmt.Fprintf(b, "%sname: %s\n", in, q(st.Name))
	}
	writeHeaders(b, in, st.Headers)
	if len(w.Sends) > 0 {
		fmt.Fprintf(b, "%ssend:\n", in)
		for _, s := range w.Sends {
			fmt.Fprintf(b, "%s  - text: %s\n", in, q(s.Text))
			if s.Every != "" {
				fmt.Fprintf(b, "%s    every: %s\n", in, q(s.Every))
			}
		}
	}
	if w.Duration != "" {
		fmt.Fprintf(b, "%sduration: %s\n", in, q(w.Duration))
	}
	if w.MaxMessages > 0 {
		fmt.Fprintf(b, "%smax_messages: %d\n", in, w.MaxMessages)
	}
}

// qList writes a flow sequence of strings.
func qList(xs []string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = q(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
