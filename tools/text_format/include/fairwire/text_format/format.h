// Scalar formatting exactly as libprotobuf 3.21's text format prints values:
// floats and doubles (SimpleFtoa / SimpleDtoa) and C-escaped strings
// (CEscape). Used by the text-format printer of `fairwire decode`.
#ifndef FAIRWIRE_TEXT_FORMAT_FORMAT_H_
#define FAIRWIRE_TEXT_FORMAT_FORMAT_H_

#include <string>
#include <string_view>

namespace fairwire::wire {

// The shorter of "%.6g" and "%.9g" that reads back (strtof) as `value`;
// "inf", "-inf", and "nan" for every NaN.
std::string FormatFloat(float value);

// The shorter of "%.15g" and "%.17g" that reads back (strtod) as `value`;
// "inf", "-inf", and "nan" for every NaN.
std::string FormatDouble(double value);

// `bytes` with \n \r \t \" \' \\ escaped and every other byte outside
// ' '..'~' as a three-digit octal escape, as protobuf's CEscape does.
std::string CEscape(std::string_view bytes);

}  // namespace fairwire::wire

#endif  // FAIRWIRE_TEXT_FORMAT_FORMAT_H_
