// Run-time schemas for libprotobuf: a scenario::SchemaCase as a
// FileDescriptorProto, built into a DescriptorPool (wire_schema_diff).
#ifndef FAIRWIRE_CHECKS_WIRE_SCHEMA_BUILD_H_
#define FAIRWIRE_CHECKS_WIRE_SCHEMA_BUILD_H_

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include <string>

#include "fairwire/scenarios/wire_schema_case.h"

namespace fairwire::wire::oracle {

// The file "fairwire_sd.proto", package fairwire.sd, as SchemaText describes.
google::protobuf::FileDescriptorProto ToFileDescriptorProto(
    const scenario::SchemaCase& c);

// Builds the case's file into `pool`; nullptr with `*error` set when the pool
// refuses it (a bug in the scenario's decoder: every case should build).
const google::protobuf::FileDescriptor* BuildSchemaCase(
    const scenario::SchemaCase& c, google::protobuf::DescriptorPool& pool,
    std::string* error);

}  // namespace fairwire::wire::oracle

#endif  // FAIRWIRE_CHECKS_WIRE_SCHEMA_BUILD_H_
