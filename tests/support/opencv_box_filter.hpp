// OpenCV's side of the box-filter agreement tests (suites built only where OpenCV is found): the
// border mode matching each of Coalesce's, and a one-axis cv::blur that also takes wrap.
#pragma once

#include "coalesce/operation.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace coalesce::test {

inline int cv_border(Border b) {
    switch (b) {
    case Border::clamp: return cv::BORDER_REPLICATE;
    case Border::zero: return cv::BORDER_CONSTANT;
    case Border::mirror: return cv::BORDER_REFLECT;
    case Border::wrap: return cv::BORDER_WRAP;
    }
    return -1;
}

// cv::blur along one axis; wrap through a padded copy, since cv::blur refuses BORDER_WRAP.
inline cv::Mat cv_filter(const cv::Mat& in, int radius, Border border, bool along_x) {
    const int k = 2 * radius + 1;
    const cv::Size ksize = along_x ? cv::Size(k, 1) : cv::Size(1, k);
    cv::Mat out;
    if (border != Border::wrap) {
        cv::blur(in, out, ksize, cv::Point(-1, -1), cv_border(border));
        return out;
    }
    cv::Mat padded;
    const int x = along_x ? radius : 0, y = along_x ? 0 : radius;
    cv::copyMakeBorder(in, padded, y, y, x, x, cv::BORDER_WRAP);
    cv::blur(padded, out, ksize, cv::Point(-1, -1), cv::BORDER_CONSTANT);
    return out(cv::Rect(x, y, in.cols, in.rows)).clone();
}

}  // namespace coalesce::test
