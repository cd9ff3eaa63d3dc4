// The names of the functions that code addresses lie in, for the reports that say where a
// run's tasks wait (`TaskHeader.resumePoints`).
//
// `dladdr` alone does not do: on Linux it knows only the symbols an image exports, and a test
// executable exports none of its own, so it would name the nearest exported symbol before the
// address, a wrong one. So the image's own symbol table is read (the ELF file's `.symtab`,
// or `.dynsym` where it was stripped), and an address is named only by a function whose
// extent holds it. Swift's names are then demangled with the runtime's `swift_demangle`.
// Elsewhere, `dladdr`'s name is taken as it is.

import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

enum FunctionNames {
  /// The demangled name of the function `address` lies in, without the prefix that names an
  /// async function's resumption ("(2) await resume partial function for "); `nil` where no
  /// symbol holds it.
  static func name(of address: UInt) -> String? {
    demangledName(of: address).map(readable)
  }

  /// The demangled name of the Swift function `address` lies in, whole ("(2) await resume
  /// partial function for static M.T.(f in _0A1B)() async -> ()"); `nil` where no symbol of
  /// a Swift function holds it.
  static func demangledName(of address: UInt) -> String? {
    guard let info = image(holding: address) else { return nil }
    var mangled: String?
    #if os(Linux)
      if let path = info.dli_fname, let base = info.dli_fbase {
        let image = String(cString: path)
        let offset = address &- UInt(bitPattern: base)
        mangled = tables.withLock { tables in
          if tables[image] == nil { tables[image] = .some(SymbolTable(path: image)) }
          return tables[image]??.function(at: offset)
        }
      }
    #else
      mangled = info.dli_sname.map { String(cString: $0) }
    #endif
    // Only Swift's functions: the runtime's own (C++) are how it waits, not where.
    guard let mangled, mangled.hasPrefix("$s") || mangled.hasPrefix("_$s") else { return nil }
    return demangled(mangled)
  }

  /// What `dladdr` says of `address`: the loaded image that holds it; `nil` where none does.
  static func image(holding address: UInt) -> ImageInfo? {
    guard let dladdr, let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
    // C's `Dl_info`, which the Glibc module leaves out (it is a GNU extension): four pointers.
    var info: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)
    guard withUnsafeMutableBytes(of: &info, { dladdr(pointer, $0.baseAddress) }) != 0 else {
      return nil
    }
    return ImageInfo(
      dli_fname: UnsafePointer(bitPattern: info.0), dli_fbase: UnsafeRawPointer(bitPattern: info.1),
      dli_sname: UnsafePointer(bitPattern: info.2))
  }

  /// What `dladdr` found: the image's path and load address, and the nearest symbol it
  /// exports before the address.
  struct ImageInfo {
    var dli_fname: UnsafePointer<CChar>?
    var dli_fbase: UnsafeRawPointer?
    var dli_sname: UnsafePointer<CChar>?
  }

  private typealias DLAddr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32

  private static let dladdr: DLAddr? = {
    processSymbol("dladdr").map { unsafeBitCast($0, to: DLAddr.self) }
  }()

  #if os(Linux)
    /// Each image's table, read the first time a report names one of its functions (`nil`
    /// where it cannot be read), and kept for the process.
    private static let tables = Mutex<[String: SymbolTable?]>([:])
  #endif

  private static func demangled(_ mangled: String) -> String {
    guard let demangle = swiftDemangle else { return mangled }
    return mangled.withCString { text in
      guard let result = demangle(text, strlen(text), nil, nil, 0) else { return mangled }
      defer { free(result) }
      return String(cString: result)
    }
  }

  /// A demangled name as a reader looks for it, the function and where it is declared:
  /// without what says which part of an async function it is ("(2) await resume partial
  /// function for "), a closure's signature, the effects, the result and generic arguments.
  static func readable(_ name: String) -> String {
    var name = Substring(name)
    if name.hasPrefix("("), let range = name.range(of: " resume partial function for ") {
      name = name[range.upperBound...]
    }
    for prefix in ["static ", "(extension in Swift):"] where name.hasPrefix(prefix) {
      name = name.dropFirst(prefix.count)
    }
    var result = ""
    while let closure = name.range(of: "closure #") {
      // A closure, which the demangler numbers after a number sign and follows with its
      // signature, becomes "closure 1 in f()": its number and what it is in.
      let number = name[closure.upperBound...].prefix { $0.isNumber }
      result += name[..<closure.lowerBound] + "closure " + number
      guard let within = name[closure.upperBound...].range(of: " in ") else {
        name = name[name.endIndex...]
        break
      }
      result += " in "
      name = name[within.upperBound...]
      if name.hasPrefix("static ") { name = name.dropFirst("static ".count) }
    }
    for prefix in ["static "] where name.hasPrefix(prefix) { name = name.dropFirst(prefix.count) }
    // The function itself: its name, then its parameters' labels, as a selector names them.
    var function = ""
    if let open = name.firstIndex(of: "(") {
      function = String(name[..<open]) + "(" + labels(ofParametersAt: name[open...]) + ")"
    } else {
      // An accessor: "Swift.Task< where B == Swift.Never>.value.getter : A".
      function = String(name.range(of: " : ").map { name[..<$0.lowerBound] } ?? name)
      if function.hasSuffix(".getter") { function.removeLast(".getter".count) }
    }
    if function.hasPrefix("Swift.") { function.removeFirst("Swift.".count) }
    return withoutGenericArguments(result + function)
  }

  /// "(isolation: isolated Swift.Optional<Swift.Actor>, _: (A) -> ())" → "isolation:_:";
  /// "(A.Type, Swift.Int)", where no parameter has a label, → "_:_:".
  private static func labels(ofParametersAt list: Substring) -> String {
    var labels = ""
    var depth = 0
    var label = ""
    var inLabel = true
    var parameters = 0
    var previous: Character = " "
    for character in list {
      defer { previous = character }
      switch character {
      case "(", "<", "[":
        depth += 1
        if depth == 1 { continue }
      case ">" where previous == "-":
        break  // the arrow of a function type, not a bracket
      case ")", ">", "]":
        depth -= 1
      default: break
      }
      if depth == 0 { break }
      guard depth == 1 else { continue }
      if parameters == 0 { parameters = 1 }
      if character == ":", inLabel {
        labels += label + ":"
        inLabel = false
      } else if character == "," {
        parameters += 1
        label = ""
        inLabel = true
      } else if inLabel, character != " " {
        label.append(character)
      }
    }
    return labels.isEmpty ? String(repeating: "_:", count: parameters) : labels
  }

  /// Without what lies between angle brackets: "Swift.Task< where B == Swift.Never>.value" →
  /// "Swift.Task.value".
  private static func withoutGenericArguments(_ name: String) -> String {
    var depth = 0
    var kept = ""
    for character in name {
      if character == "<" {
        depth += 1
      } else if character == ">", depth > 0 {
        depth -= 1
      } else if depth == 0 {
        kept.append(character)
      }
    }
    return kept
  }

  private typealias Demangle =
    @convention(c) (
      UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
    ) -> UnsafeMutablePointer<CChar>?

  private static let swiftDemangle: Demangle? = {
    processSymbol("swift_demangle").map { unsafeBitCast($0, to: Demangle.self) }
  }()
}

#if os(Linux)
  /// The functions of one ELF image (64-bit, little-endian): its file mapped read-only, and
  /// where in it the symbol table and its names lie. Offsets are from the image's load
  /// address, as `dladdr`'s base gives it for a position-independent image.
  private final class SymbolTable {
    /// The file, mapped read-only for as long as the process lasts.
    private let file: UnsafeRawBufferPointer
    private let symbols: Range<Int>
    private let names: Range<Int>
    /// The lowest address the image's loadable segments ask for: 0 for a position-independent
    /// image, whose symbols are then offsets from its load address.
    private let lowestAddress: UInt

    init?(path: String) {
      let descriptor = open(path, O_RDONLY)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var status = stat()
      guard fstat(descriptor, &status) == 0, status.st_size > 64,
        let mapped = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0),
        mapped != UnsafeMutableRawPointer(bitPattern: -1)
      else { return nil }
      let file = UnsafeRawBufferPointer(start: mapped, count: Int(status.st_size))
      // "\x7fELF", 64-bit (class 2), little-endian (data 1).
      guard file[0] == 0x7F, file[1] == 0x45, file[2] == 0x4C, file[3] == 0x46, file[4] == 2,
        file[5] == 1
      else {
        munmap(mapped, Int(status.st_size))
        return nil
      }
      func read<T: FixedWidthInteger>(_ offset: Int, as _: T.Type) -> T {
        guard offset >= 0, offset <= file.count - MemoryLayout<T>.size else { return 0 }
        return file.loadUnaligned(fromByteOffset: offset, as: T.self)
      }
      // The program headers: the lowest address a loadable segment (type 1) asks for.
      let programHeaders = Int(truncatingIfNeeded: read(0x20, as: UInt64.self))
      let programHeaderSize = Int(truncatingIfNeeded: read(0x36, as: UInt16.self))
      var lowest = UInt.max
      for index in 0..<Int(truncatingIfNeeded: read(0x38, as: UInt16.self)) {
        let header = programHeaders &+ index &* programHeaderSize
        if read(header, as: UInt32.self) == 1 {
          lowest = min(
            lowest, UInt(truncatingIfNeeded: read(header &+ 16, as: UInt64.self)) & ~0xFFF)
        }
      }
      // The section headers: the full symbol table (type 2), or the dynamic one (type 11),
      // and the string table its link names.
      let sectionHeaders = Int(truncatingIfNeeded: read(0x28, as: UInt64.self))
      let sectionHeaderSize = Int(truncatingIfNeeded: read(0x3A, as: UInt16.self))
      let sectionCount = Int(truncatingIfNeeded: read(0x3C, as: UInt16.self))
      func section(_ index: Int) -> (type: UInt32, range: Range<Int>, link: Int) {
        let header = sectionHeaders &+ index &* sectionHeaderSize
        let start = min(
          max(0, Int(truncatingIfNeeded: read(header &+ 24, as: UInt64.self))), file.count)
        let size = Int(truncatingIfNeeded: read(header &+ 32, as: UInt64.self))
        let end = min(start &+ size, file.count)
        return (
          read(header &+ 4, as: UInt32.self), start..<max(start, end),
          Int(truncatingIfNeeded: read(header &+ 40, as: UInt32.self))
        )
      }
      let all = (0..<sectionCount).map(section)
      guard lowest != .max,
        let table = all.first(where: { $0.type == 2 }) ?? all.first(where: { $0.type == 11 }),
        table.link < all.count
      else {
        munmap(mapped, Int(status.st_size))
        return nil
      }
      self.file = file
      self.symbols = table.range
      self.names = all[table.link].range
      self.lowestAddress = lowest
    }

    /// The mangled name of the function whose extent holds `offset` (from the load address).
    func function(at offset: UInt) -> String? {
      let address = offset &+ lowestAddress
      // Elf64_Sym: name (4 bytes), info (1), other (1), section (2), value (8), size (8).
      var position = symbols.lowerBound
      while position + 24 <= symbols.upperBound {
        defer { position += 24 }
        guard file[position + 4] & 0xF == 2 else { continue }  // a function
        let start = UInt(file.loadUnaligned(fromByteOffset: position + 8, as: UInt64.self))
        let size = UInt(file.loadUnaligned(fromByteOffset: position + 16, as: UInt64.self))
        guard start <= address, address < start &+ size else { continue }
        let name =
          names.lowerBound &+ Int(file.loadUnaligned(fromByteOffset: position, as: UInt32.self))
        guard name >= 0, name < names.upperBound,
          let end = file[name..<names.upperBound].firstIndex(of: 0)
        else { return nil }
        return String(decoding: file[name..<end], as: UTF8.self)
      }
      return nil
    }
  }
#endif
