import CombineSchedulers
import Dispatch
import SchedulersTesting

let scheduler = DispatchQueue.unimplemented
