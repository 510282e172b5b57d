package h1

import "testing"

// TestRecordCursorCounts: the records that end in a byte stream are
// counted whatever pieces it comes in, an empty record too, and Whole
// says whether the bytes seen end at a record's end.
func TestRecordCursorCounts(t *testing.T) {
	stream := []byte{23, 3, 3, 0, 3, 'a', 'b', 'c', 23, 3, 3, 0, 0, 23, 3, 3, 0, 2, 'd', 'e'}
	ends := map[int]bool{8: true, 13: true, 20: true} // offsets just past a record
	for _, piece := range []int{1, 2, 3, 5, 7, len(stream)} {
		var c RecordCursor
		n, want := 0, 0
		for off := 0; off < len(stream); off += piece {
			end := min(off+piece, len(stream))
			n += c.Records(stream[off:end])
			for i := off + 1; i <= end; i++ {
				if ends[i] {
					want++
				}
			}
			if n != want || c.Whole() != ends[end] {
				t.Fatalf("pieces of %d, after %d bytes: %d records, whole %v; want %d, %v", piece, end, n, c.Whole(), want, ends[end])
			}
		}
	}
}
