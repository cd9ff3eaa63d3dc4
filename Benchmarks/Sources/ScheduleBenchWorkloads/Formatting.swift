import Foundation

/// A count with thousands separators: 1000000 as "1,000,000".
public func grouped(_ value: Int) -> String {
  let digits = Array(String(value))
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
    result.append(digit)
  }
  return result
}

/// A figure with a fixed number of decimals: 332.64 as "332.6".
public func format(_ value: Double, decimals: Int = 1) -> String {
  String(format: "%.\(decimals)f", value)
}
