import CombineSchedulers
import Dispatch
import Schedulers

let scheduler: AnySchedulerOf<DispatchQueue> = .main
