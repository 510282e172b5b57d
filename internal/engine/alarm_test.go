package engine

import (
	"context"
	"testing"
	"time"
)

func TestAlarmWakesAtItsTime(t *testing.T) {
	a := newAlarm()
	defer a.close()
	ctx := context.Background()
	for _, d := range []time.Duration{-time.Millisecond, 0, 300 * time.Microsecond, 2 * time.Millisecond, 20 * time.Millisecond} {
		at := time.Now().Add(d)
		if !a.wait(ctx, at) {
			t.Fatalf("wait(%v) = false with a live context", d)
		}
		if now := time.Now(); now.Before(at) {
			t.Fatalf("wait(%v) returned %v before its time", d, at.Sub(now))
		}
	}
}

func TestAlarmStopsWithItsContext(t *testing.T) {
	a := newAlarm()
	defer a.close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { done <- a.wait(ctx, time.Now().Add(time.Hour)) }()
	cancel()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("wait reported its hour passed after the context ended")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("wait went on after its context ended")
	}
	if a.wait(ctx, time.Now().Add(time.Millisecond)) {
		t.Fatal("wait on an ended context reported true")
	}
}
