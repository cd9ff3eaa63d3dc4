import Schedulers
