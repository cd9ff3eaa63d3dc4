/// What a job is, by the kind in its header (`TaskHeader.kind`).
package enum JobKind: Sendable {
  case task, actor, resumption, other

  init(_ job: UnownedJob) {
    switch TaskHeader(unsafeBitCast(job, to: UnsafeRawPointer.self)).kind {
    case 0: self = .task
    case 192...194: self = .actor
    case 195: self = .resumption
    default: self = .other
    }
  }
}
