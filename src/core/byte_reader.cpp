#include "dereth/core/byte_reader.hpp"

namespace dereth::core {

Error ByteReader::error(ErrorKind kind, std::string_view field, std::string detail) const {
  return error_at(pos_, kind, field, std::move(detail));
}

Error ByteReader::error_at(std::size_t offset, ErrorKind kind, std::string_view field, std::string detail) const {
  return Error{kind, std::string(context_), std::string(field), offset, std::move(detail)};
}

}  // namespace dereth::core
