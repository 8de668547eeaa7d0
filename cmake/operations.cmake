# The operations, in the order users see them (cmake/CoalesceOperations.cmake says what a line
# names). Adding an operation: its descriptor, its kernels file and one line here.
coalesce_operation(copy)
coalesce_operation(transpose)
coalesce_operation(row_sums)
coalesce_operation(col_sums)
coalesce_operation(filter_x)
coalesce_operation(filter_y)
coalesce_operation(offset_read)
coalesce_operation(offset_write)
coalesce_operation(gather)
coalesce_operation(scatter)
coalesce_operation(scattered)
coalesce_operation(strided_add)
