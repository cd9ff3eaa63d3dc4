import CombineSchedulers
import Dispatch
import Schedulers

let scheduler = DispatchQueue.immediate
