#include "coalesce/profile_plan.hpp"

#include "coalesce/cuda_check.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/ncu_csv.hpp"
#include "coalesce/run_steps.hpp"

#include <nlohmann/json.hpp>
#include <nvtx3/nvToolsExt.h>

#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace coalesce {
namespace {

using Json = nlohmann::ordered_json;
constexpr const char* kPlanSchema = "coalesce-profile-plan/1";

[[noreturn]] void plan_error(const std::string& what) {
    throw std::runtime_error("profile plan: " + what);
}

template <class T>
T field(const Json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end()) plan_error(std::string("missing field '") + key + "'");
    try {
        return it->get<T>();
    } catch (const Json::exception&) {
        plan_error(std::string("field '") + key + "' has the wrong type");
    }
}

// The kernel launches one launch() makes, counted by capturing it into a CUDA graph (captured,
// not run). -1 when the launch cannot be captured (it synchronizes, say): the count is then
// unknown and ncu's rows are taken as they come.
int count_kernels(Instance& instance, cudaStream_t stream) {
    if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    bool launched = true;
    try {
        instance.launch(stream);
    } catch (const std::exception&) {
        launched = false;
    }
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    cudaGetLastError();
    int kernels = -1;
    std::size_t count = 0;
    if (launched && ended == cudaSuccess && graph &&
        cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess) {
        std::vector<cudaGraphNode_t> nodes(count);
        if (count == 0 || cudaGraphGetNodes(graph, nodes.data(), &count) == cudaSuccess) {
            kernels = 0;
            for (cudaGraphNode_t node : nodes) {
                cudaGraphNodeType type{};
                if (cudaGraphNodeGetType(node, &type) == cudaSuccess &&
                    type == cudaGraphNodeTypeKernel)
                    ++kernels;
            }
        }
    }
    if (graph) COALESCE_CUDA_NOTHROW(cudaGraphDestroy(graph));
    return kernels;
}

// Make, upload, count, poison: all outside the range. Then exactly one launch inside it.
int profile_one(const Variant& variant, const Matrix& input, const OpParams& params,
                std::size_t index) {
    std::unique_ptr<Instance> instance = variant.make(input.shape(), params);
    instance->upload(input);
    const Stream stream = Stream::create();
    const int kernels = count_kernels(*instance, stream.get());
    instance->poison();
    COALESCE_CUDA(cudaDeviceSynchronize());
    const std::string range = ncu::range_name(index);
    nvtxRangePushA(range.c_str());
    try {
        instance->launch(stream.get());
        COALESCE_CUDA(cudaStreamSynchronize(stream.get()));
    } catch (...) {
        nvtxRangePop();
        throw;
    }
    nvtxRangePop();
    return kernels;
}

}  // namespace

std::string plan_to_json(const ProfilePlan& plan) {
    Json runs = Json::array();
    for (const ProfileRun& r : plan.runs)
        runs.push_back(Json{{"index", r.index},
                            {"variant", r.variant},
                            {"rows", r.shape.rows},
                            {"cols", r.shape.cols},
                            {"radius", r.params.radius},
                            {"border", std::string(border_name(r.params.border))},
                            {"params", Json(r.params.values)}});
    const Json j{{"schema", kPlanSchema},
                 {"device", plan.device},
                 {"seed", plan.seed},
                 {"plugin_dirs", plan.plugin_dirs},
                 {"runs", runs}};
    return j.dump(2) + "\n";
}

ProfilePlan plan_from_json(const std::string& text) {
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::parse_error& e) {
        plan_error(e.what());
    }
    if (!j.is_object() || field<std::string>(j, "schema") != kPlanSchema)
        plan_error(std::string("not a plan of schema ") + kPlanSchema);
    ProfilePlan plan;
    plan.device = field<int>(j, "device");
    plan.seed = field<std::uint64_t>(j, "seed");
    plan.plugin_dirs = field<std::vector<std::string>>(j, "plugin_dirs");
    for (const Json& r : field<Json>(j, "runs")) {
        ProfileRun run;
        run.index = field<std::size_t>(r, "index");
        run.variant = field<std::string>(r, "variant");
        run.shape = {field<std::size_t>(r, "rows"), field<std::size_t>(r, "cols")};
        run.params.radius = field<int>(r, "radius");
        const std::string border = field<std::string>(r, "border");
        const auto b = parse_border(border);
        if (!b) plan_error("unknown border mode '" + border + "'");
        run.params.border = *b;
        const Json values = field<Json>(r, "params");
        if (!values.is_object()) plan_error("field 'params' is not an object");
        for (const auto& [name, value] : values.items()) {
            if (!value.is_number_integer()) plan_error("parameter '" + name + "' is not whole");
            run.params.values[name] = value.get<long long>();
        }
        plan.runs.push_back(std::move(run));
    }
    return plan;
}

std::string outcome_line(const ProfileOutcome& o) {
    const Json j{{"index", o.index},
                 {"variant", o.variant},
                 {"launched", o.launched},
                 {"kernels", o.kernels},
                 {"error", o.error}};
    return kOutcomePrefix + j.dump();
}

std::vector<ProfileOutcome> parse_outcomes(const std::string& stdout_text) {
    std::vector<ProfileOutcome> outcomes;
    std::istringstream lines(stdout_text);
    const std::string prefix = kOutcomePrefix;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(prefix, 0) != 0) continue;
        try {
            const Json j = Json::parse(line.substr(prefix.size()));
            ProfileOutcome o;
            o.index = j.at("index").get<std::size_t>();
            o.variant = j.at("variant").get<std::string>();
            o.launched = j.at("launched").get<bool>();
            o.kernels = j.at("kernels").get<int>();
            o.error = j.at("error").get<std::string>();
            outcomes.push_back(std::move(o));
        } catch (const Json::exception& e) {
            throw std::runtime_error("damaged profiling outcome '" + line.substr(0, 120) +
                                     "': " + e.what());
        }
    }
    return outcomes;
}

std::size_t run_profile_plan(const Registry& registry, const ProfilePlan& plan, std::ostream& out) {
    COALESCE_CUDA(cudaSetDevice(plan.device));
    std::optional<Matrix> input;  // one shape at a time: 8192x8192 is 256 MiB
    std::size_t launched = 0;
    for (const ProfileRun& run : plan.runs) {
        ProfileOutcome o;
        o.index = run.index;
        o.variant = run.variant;
        try {
            const Variant* variant = registry.find(run.variant);
            if (!variant)
                throw std::runtime_error("no variant '" + run.variant +
                                         "' here (a plugin that did not load?)");
            if (!variant->info.gpu) throw std::runtime_error("a host variant has no GPU kernels");
            if (!input || input->shape() != run.shape) {
                input.reset();
                input = Matrix::random(run.shape.rows, run.shape.cols, plan.seed);
            }
            o.kernels = profile_one(*variant, *input, resolved_params(variant->info.op, run.params),
                                    run.index);
            o.launched = true;
            ++launched;
        } catch (const std::exception& e) {
            o.error = e.what();
            run_steps::recover_device(plan.device);
        }
        out << outcome_line(o) << '\n' << std::flush;
    }
    return launched;
}

}  // namespace coalesce
