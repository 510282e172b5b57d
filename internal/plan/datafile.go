package plan

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// Limits of data files. A file up to MaxDataInMemory bytes is held as rows;
// a larger one is read once when the test is, to check it and index where
// its rows start, and streamed to the VUs while the test runs, so memory
// does not grow with the file (a 1 GB CSV once took 3.1 GB).
const (
	MaxDataInMemory = 16 << 20 // bytes of a CSV file held in memory
	MaxStreamedRow  = 1 << 20  // bytes of one row of a streamed CSV file
	dataIndexStride = 1024     // rows between two offsets of the index, at first
	maxDataIndex    = 1 << 16  // offsets kept: past it, every other one goes and the stride doubles
	csvReadAhead    = 4096     // what encoding/csv's bufio.Reader reads beyond the row it returns, at most
)

// DataFile is a CSV file too large to hold: where to read its rows while
// the test runs.
type DataFile struct {
	Path    string    // the file to open (resolved against the test's directory)
	Size    int64     // as it was read, with its modification time: a run refuses a file changed since
	ModTime time.Time // (its index would not match it)
	Index   []int64   // the byte offset of data rows 0, Stride, 2·Stride, ...
	Stride  int64
	MaxRow  int64 // bytes of its longest row
}

// errNotRegular refuses devices and pipes: /dev/zero would never end.
var errNotRegular = errors.New("not a regular file")

// ScanCSV reads the CSV file at path once, in bounded memory: its header
// row (the columns), its data rows counted, and either the rows themselves
// (a file of at most keep bytes) or a DataFile to stream them from. The
// file is UTF-8 unless encoding names another (see Encodings), which only
// a file that is held may use: a streamed file's rows are found by offset.
func ScanCSV(path string, keep int64, encoding string) (columns []string, rows [][]string, count int64, file *DataFile, err error) {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, nil, 0, nil, err
	case !info.Mode().IsRegular():
		return nil, nil, 0, nil, errNotRegular
	case encoding != "" && info.Size() > keep:
		return nil, nil, 0, nil, fmt.Errorf("encoding: %s works for files up to %d MiB and this one is %s; save it as UTF-8 (iconv -f %s -t UTF-8)",
			encoding, keep>>20, bytesText(info.Size()), encoding)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	defer f.Close()
	start, err := skipBOM(f, encoding)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	in := newCSVInput(decoded(f, encoding), start)
	r := csv.NewReader(in)
	r.ReuseRecord = info.Size() > keep // the rows are not kept: one record's memory serves them all
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, 0, nil, errEmptyCSV
	}
	if err != nil {
		return nil, nil, 0, nil, err
	}
	columns = append([]string(nil), header...)
	if info.Size() <= keep {
		rows, err = r.ReadAll()
		return columns, rows, int64(len(rows)), nil, err
	}
	file = &DataFile{Path: path, Size: info.Size(), ModTime: info.ModTime(), Stride: dataIndexStride}
	count, err = file.index(r, in, start)
	return columns, nil, count, file, err
}

// errEmptyCSV is a file without even a header row.
var errEmptyCSV = errors.New("empty")

// skipBOM moves past a UTF-8 byte order mark (not part of the first
// column's name) and returns the offset the CSV starts at. A UTF-16 or
// UTF-32 one is an error unless encoding says UTF-16 (its decoder reads it).
func skipBOM(f *os.File, encoding string) (int64, error) {
	head := make([]byte, 4)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return 0, err
	}
	head = head[:n]
	start := int64(0)
	switch {
	case bytes.HasPrefix(head, []byte("\xef\xbb\xbf")):
		start = 3
	case bytes.HasPrefix(head, []byte("\xff\xfe\x00\x00")) || bytes.HasPrefix(head, []byte("\x00\x00\xfe\xff")):
		return 0, errors.New("the file is UTF-32 (it starts with a UTF-32 byte order mark); save it as UTF-8 (iconv -f UTF-32 -t UTF-8)")
	case encoding == "" && (bytes.HasPrefix(head, []byte("\xff\xfe")) || bytes.HasPrefix(head, []byte("\xfe\xff"))):
		return 0, errors.New("the file is UTF-16 (it starts with a UTF-16 byte order mark); set encoding: utf-16 on the data source, or save it as UTF-8 (iconv -f UTF-16 -t UTF-8)")
	}
	_, err = f.Seek(start, io.SeekStart)
	return start, err
}

// index reads the data rows after the header, counting them and keeping
// the offset of every Stride-th, and the longest row's size.
func (d *DataFile) index(r *csv.Reader, in *csvInput, start int64) (int64, error) {
	var count int64
	at := start + r.InputOffset()
	for {
		in.startRow(at, MaxStreamedRow, csvReadAhead)
		_, err := r.Read()
		if errors.Is(err, io.EOF) {
			return count, nil
		}
		var long rowTooLong
		if errors.As(err, &long) {
			return count, fmt.Errorf("the row on line %d is longer than %d MiB (the rest was not read); a row of a data file larger than %d MiB may be at most %d MiB",
				long.line, MaxStreamedRow>>20, MaxDataInMemory>>20, MaxStreamedRow>>20)
		}
		if err != nil {
			return count, err
		}
		end := start + r.InputOffset()
		if size := end - at; size > MaxStreamedRow {
			line, _ := r.FieldPos(0)
			return count, fmt.Errorf("the row on line %d is %s; a row of a data file larger than %d MiB may be at most %d MiB",
				line, bytesText(size), MaxDataInMemory>>20, MaxStreamedRow>>20)
		} else if size > d.MaxRow {
			d.MaxRow = size
		}
		if count%d.Stride == 0 {
			d.Index = append(d.Index, at)
			if len(d.Index) > maxDataIndex { // keep every other offset: the index stays small whatever the file
				d.Index = thin(d.Index)
				d.Stride *= 2
			}
		}
		count++
		at = end
	}
}

// thin keeps every other offset.
func thin(index []int64) []int64 {
	out := index[:0]
	for i := 0; i < len(index); i += 2 {
		out = append(out, index[i])
	}
	return out
}

// OpenRows opens the file at data row row for reading its rows in order,
// with its columns' count; it refuses a file changed since it was scanned.
func (d *DataFile) OpenRows(row int64, columns int) (*os.File, *csv.Reader, error) {
	f, err := os.Open(d.Path)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && (info.Size() != d.Size || !info.ModTime().Equal(d.ModTime)) {
		err = fmt.Errorf("it changed since the test was read (%s then, %s now); run again", bytesText(d.Size), bytesText(info.Size()))
	}
	block := row / d.Stride
	if err == nil && block < int64(len(d.Index)) {
		_, err = f.Seek(d.Index[block], io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	r := csv.NewReader(bufio.NewReaderSize(f, 64<<10))
	r.FieldsPerRecord = columns
	for skip := row - block*d.Stride; skip > 0; skip-- {
		if _, err := r.Read(); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	return f, r, nil
}
