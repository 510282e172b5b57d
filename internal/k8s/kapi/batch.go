package kapi

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Job is a batch/v1 Job.
type Job struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              JobSpec   `json:"spec,omitempty"`
	Status            JobStatus `json:"status,omitempty"`
}

// JobSpec is a Job's spec.
type JobSpec struct {
	Parallelism             *int32          `json:"parallelism,omitempty"`
	Completions             *int32          `json:"completions,omitempty"`
	ActiveDeadlineSeconds   *int64          `json:"activeDeadlineSeconds,omitempty"`
	BackoffLimit            *int32          `json:"backoffLimit,omitempty"`
	BackoffLimitPerIndex    *int32          `json:"backoffLimitPerIndex,omitempty"`
	MaxFailedIndexes        *int32          `json:"maxFailedIndexes,omitempty"`
	Template                PodTemplateSpec `json:"template"`
	TTLSecondsAfterFinished *int32          `json:"ttlSecondsAfterFinished,omitempty"`
	CompletionMode          *CompletionMode `json:"completionMode,omitempty"`
	Suspend                 *bool           `json:"suspend,omitempty"`
}

// CompletionMode is how a Job counts its pods.
type CompletionMode string

// IndexedCompletion gives each pod an index.
const IndexedCompletion CompletionMode = "Indexed"

// JobStatus is what the Job controller reports of a Job.
type JobStatus struct {
	Conditions []JobCondition `json:"conditions,omitempty"`
	Active     int32          `json:"active,omitempty"`
	Succeeded  int32          `json:"succeeded,omitempty"`
	Failed     int32          `json:"failed,omitempty"`
}

// JobConditionType names a Job's condition.
type JobConditionType string

// The Job conditions loadlens reads.
const (
	JobComplete JobConditionType = "Complete"
	JobFailed   JobConditionType = "Failed"
)

// JobCondition is one condition of a Job.
type JobCondition struct {
	Type    JobConditionType `json:"type"`
	Status  ConditionStatus  `json:"status"`
	Reason  string           `json:"reason,omitempty"`
	Message string           `json:"message,omitempty"`
}
