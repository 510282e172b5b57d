package sse

import (
	"strings"
	"testing"
)

func TestParser(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		max    int
		want   []string
		lastID string
		retry  int
		err    string
	}{
		{"one event", "data: a\n\n", 64, []string{"a"}, "", -1, ""},
		{"multi-line data joins with LF", "data: a\ndata: b\n\n", 64, []string{"a\nb"}, "", -1, ""},
		{"CRLF and CR line ends", "data: a\r\n\r\ndata: b\r\rdata:c\n\n", 64, []string{"a", "b", "c"}, "", -1, ""},
		{"comments and unknown fields ignored", ": ping\nevent: x\nfoo: y\ndata: z\n\n", 64, []string{"z"}, "", -1, ""},
		{"no data dispatches nothing", "event: x\n\nid: 7\n\n", 64, nil, "7", -1, ""},
		{"id and retry", "id: 41\nretry: 250\ndata: q\n\n", 64, []string{"q"}, "41", 250, ""},
		{"id with NUL ignored", "id: 1\nid: a\x00b\ndata: q\n\n", 64, []string{"q"}, "1", -1, ""},
		{"bad retry ignored", "retry: 1x\ndata: q\n\n", 64, []string{"q"}, "", -1, ""},
		{"BOM skipped", "\xef\xbb\xbfdata: q\n\n", 64, []string{"q"}, "", -1, ""},
		{"field without colon", "data\n\n", 64, []string{""}, "", -1, ""},
		{"unfinished event is not dispatched", "data: a\n", 64, nil, "", -1, ""},
		{"line past max fails", "data: " + strings.Repeat("x", 100) + "\n\n", 32, nil, "", -1, "line longer than max_event_size (32 B)"},
		{"line without end past max fails", strings.Repeat("x", 100), 32, nil, "", -1, "line longer than max_event_size"},
		{"data past max fails", strings.Repeat("data: 0123456789\n", 4) + "\n", 32, nil, "", -1, "data longer than max_event_size"},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 3, 1 << 20} { // the same stream in chunks of any size
			t.Run(tt.name, func(t *testing.T) {
				p := newParser(tt.max)
				var got []string
				var err error
				s := tt.stream
				for len(s) > 0 && err == nil {
					n := min(chunk, len(s))
					err = p.feed([]byte(s[:n]), func(d []byte) { got = append(got, string(d)) })
					s = s[n:]
				}
				if tt.err != "" {
					if err == nil || !strings.Contains(err.Error(), tt.err) {
						t.Fatalf("chunk %d: err = %v, want %q", chunk, err, tt.err)
					}
					return
				}
				if err != nil {
					t.Fatalf("chunk %d: %v", chunk, err)
				}
				if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) || p.lastID != tt.lastID || p.retry != tt.retry {
					t.Errorf("chunk %d: events %q, id %q, retry %d; want %q, %q, %d", chunk, got, p.lastID, p.retry, tt.want, tt.lastID, tt.retry)
				}
			})
		}
	}
}
